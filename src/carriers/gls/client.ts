import { createHash } from 'node:crypto';
import type { FieldErrors } from '../../domain/errors.js';
import { resolveBaseUrl } from '../base-url.js';
import { CarrierHttp, jsonOrUndefined } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { KeptPointLists } from '../point-lists.js';
import type { CarrierContext, ChannelSettings, PickupPoint } from '../types.js';
import { GLS_MAP_HOSTS, type GlsCountry } from './codes.js';
import { wcfDate } from './dates.js';
import { pickupPointsOf, type GlsDeliveryPointList } from './points.js';
import type { GlsPickupRequest, GlsPrintLabelsRequest } from './request.js';
import {
  glsFailure, parsePickupRefusal, parseRefusal, type GlsAnswer, type GlsLabelsAnswer, type GlsParcelStatusesAnswer, type GlsPickupAnswer,
} from './response.js';
import type { GlsSettings } from './settings.js';

/**
 * The MyGLS hosts of a country ("Country domain API URLs" of the MyGLS API documentation): api.mygls.<country>,
 * test api.test.mygls.<country>. The `country` setting picks them; a `baseUrl` setting overrides both.
 */
export function glsBaseUrls(country: GlsCountry): { production: string; sandbox: string } {
  return { production: `https://api.mygls.${country}`, sandbox: `https://api.test.mygls.${country}` };
}

export const GLS_BASE_URLS = glsBaseUrls('cz');

const SERVICE = '/ParcelService.svc/json/';

/** A refusal, with MyGLS's error code for the callers that tell codes apart. */
export class GlsRefusedError extends CarrierRefusedError {
  constructor(message: string, errors: FieldErrors, readonly code: number | null) {
    super(message, errors);
  }
}

/** MyGLS refused the user name and password (Appendix A: -1 "Unauthorized.", 14 "User not exists"). */
export class GlsCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(readonly reason: string, readonly code: number | null) {
    super(`GLS refused the credentials: ${reason}`, { shipping_channel_id: [`GLS refused the channel's credentials: ${reason}`] });
  }
}

/** MyGLS's password: the SHA-512 digest of the password as a list of byte values (webapix/mygls-sdk `Account::createPasswordHash`). */
export function glsPasswordDigest(password: string): number[] {
  return [...createHash('sha512').update(password, 'utf8').digest()];
}

/**
 * The only MyGLS code that does network I/O: one method per ParcelService call, every call a JSON POST whose body
 * carries `Username` and the password digest (MyGLS has no auth header and no tokens).
 */
export class GlsClient {
  private readonly http: CarrierHttp;
  private readonly login: { Username: string; Password: number[] };

  constructor(settings: GlsSettings, ctx: CarrierContext) {
    const digest = glsPasswordDigest(settings.password);
    // the digest logs in as well as the password does: it is kept out of traces too
    this.http = new CarrierHttp('gls', resolveBaseUrl({ name: 'GLS', baseUrls: glsBaseUrls(settings.country) }, settings), ctx, [settings.password, JSON.stringify(digest)]);
    this.login = { Username: settings.username, Password: digest };
  }

  /**
   * An answer that lists errors is thrown as what it is; `allow` lets a caller read the not-found kind itself, and
   * `refusal` names a refusal's fields in the caller's terms.
   */
  private async post<T extends GlsAnswer>(
    method: string, body: Record<string, unknown>, allow: 'not_found' | null = null, refusal: typeof parseRefusal = parseRefusal,
  ): Promise<T> {
    const res = await this.http.call('POST', `${SERVICE}${method}`, { json: { ...this.login, ...body } });
    const answer = jsonOrUndefined<T>(res);
    if (answer === undefined || answer === null || typeof answer !== 'object') {
      throw new CarrierTransientError(`GLS answered ${method} with HTTP ${res.status} and no JSON`);
    }
    const failure = glsFailure(answer) ?? (res.status >= 400 ? { kind: 'refused' as const, code: null, message: `HTTP ${res.status}` } : null);
    if (!failure || failure.kind === allow) return answer;
    if (failure.kind === 'credentials') throw new GlsCredentialsRefused(failure.message, failure.code);
    if (failure.kind === 'transient') throw new CarrierTransientError(`GLS could not answer ${method} now: ${failure.message}`);
    const { message, errors } = refusal(res.status, answer);
    throw new GlsRefusedError(message, errors, failure.code);
  }

  /** The cheapest authenticated read: the parcels printed in the last minute. */
  async checkCredentials(now: number): Promise<void> {
    await this.parcelsPrintedBetween(now - 60_000, now);
  }

  printLabels(request: GlsPrintLabelsRequest): Promise<GlsLabelsAnswer & GlsAnswer> {
    return this.post('PrintLabels', { ...request });
  }

  /** GetParcelList by print date: every parcel of the account labelled in the window, with its ClientReference. */
  parcelsPrintedBetween(from: number, to: number): Promise<GlsLabelsAnswer & GlsAnswer> {
    return this.post('GetParcelList', { PrintDateFrom: wcfDate(from), PrintDateTo: wcfDate(to) });
  }

  /** The labels of parcels printed before, in the order of `parcelIds`, as one document. */
  printedLabels(parcelIds: readonly number[], typeOfPrinter: string): Promise<GlsLabelsAnswer & GlsAnswer> {
    return this.post('GetPrintedLabels', { ParcelIdList: parcelIds, TypeOfPrinter: typeOfPrinter, ShowPrintDialog: false });
  }

  /** DeleteLabels: a parcel's id deletes its sub-parcels with it (`SuccessfullyDeleted.SubParcelIdList`). */
  deleteLabels(parcelIds: readonly number[]): Promise<GlsAnswer> {
    return this.post('DeleteLabels', { ParcelIdList: parcelIds });
  }

  /** CreatePickupRequest: a courier for a number of packages in a window; MyGLS lists, looks up and cancels none. */
  createPickupRequest(request: GlsPickupRequest): Promise<GlsPickupAnswer & GlsAnswer> {
    return this.post('CreatePickupRequest', { ...request }, null, parsePickupRefusal);
  }

  /** GetParcelStatuses of one parcel number; a number GLS does not know comes back with its not-found error. */
  parcelStatuses(parcelNumber: string): Promise<GlsParcelStatusesAnswer & GlsAnswer> {
    return this.post('GetParcelStatuses', { ParcelNumber: Number(parcelNumber), ReturnPOD: false, LanguageIsoCode: 'EN' }, 'not_found');
  }
}

/** Countries' point lists, kept 10 minutes: each file is the whole country (thousands of points), searched here. */
const pointLists = new KeptPointLists(10 * 60_000);

/**
 * A country's ParcelShops and ParcelLockers from GLS's public point list: `GET /data/deliveryPoints/<country>.json`
 * on the country's map host (no login; the country in lower case), or under `baseUrl` where the settings give one.
 * Kept for a while and shared by the calls that ask meanwhile; a failed fetch is not kept.
 */
export function glsPointList(country: GlsCountry, settings: ChannelSettings, ctx: CarrierContext): Promise<PickupPoint[]> {
  const base = typeof settings.baseUrl === 'string' && settings.baseUrl ? settings.baseUrl : GLS_MAP_HOSTS[country];
  const http = new CarrierHttp('gls', base, ctx, []);
  const path = `/data/deliveryPoints/${country}.json`;
  return pointLists.get(http.url(path), ctx.clock, () => http.call('GET', path).then((res) => {
    const list = res.status === 200 ? jsonOrUndefined<GlsDeliveryPointList>(res) : undefined;
    if (!list || !Array.isArray(list.items)) {
      throw new CarrierTransientError(`GLS's point list for ${country.toUpperCase()} could not be read (HTTP ${res.status})`);
    }
    return pickupPointsOf(list, country);
  }));
}
