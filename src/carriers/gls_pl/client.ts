import type { FieldErrors } from '../../domain/errors.js';
import { resolveBaseUrl } from '../base-url.js';
import { basicAuthorization, CarrierHttp, jsonOrUndefined, TokenRejected, type TokenSource } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { soapCall, SoapFault, xmlObject, xmlString, type SoapPart, type XmlElement, type XmlObject } from '../soap.js';
import type { CarrierContext, LabelFormat, PickupPoint } from '../types.js';
import { GLS_PL_LABEL_MODES } from './codes.js';
import {
  CREDENTIAL_FAULTS, parseConsign, parseConsignId, parseCourierOrdered, parseGlsPlFault, parseGlsPlHandOverFault, parseIds, parseParcelLabels,
  parsePickup, parsePickupId, parsePointFault, parseReceipt, POINT_NOT_FOUND, SESSION_FAULTS, type GlsPlConsignView, type GlsPlParcelLabel, type GlsPlPickupView, type GlsTrackingAnswer,
} from './response.js';
import { parseParcelShops, pickupPointOfParcelShop } from './points.js';
import { ADE_PATH, ADE_SERVICE, GLS_PL_BASE_URLS, GLS_TRACKING_BASE_URL, GLS_TRACKING_PATH } from './service.js';
import type { GlsPlSettings } from './settings.js';

export { GLS_PL_BASE_URLS };

/** ADE sets the session's lifetime in its guidelines, not the WSDL; renewed early, and again on err_sess_expired. */
const SESSION_SECONDS = 600;

/** ADE refused the user name or password at adeLogin: a refusal of the channel's settings, wherever it happens. */
export class GlsPlCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(reason: string) {
    super(`GLS Poland refused the credentials: ${reason}`, { 'settings.username': ['refused by GLS Poland'], 'settings.password': ['refused by GLS Poland'] });
  }
}

/** ADE refused an operation; its fault tells callers which refusals they can explain better. */
export class GlsPlRefusedError extends CarrierRefusedError {
  constructor(readonly fault: SoapFault, message: string, errors: FieldErrors) {
    super(message, errors);
  }
}

type FaultReader = (fault: SoapFault) => { message: string; errors: FieldErrors };

/** A fault ADE answered: login faults, server trouble, or a refusal on our field paths. */
function faultError(fault: SoapFault, refusal: FaultReader): Error {
  if (CREDENTIAL_FAULTS.has(fault.code)) return new GlsPlCredentialsRefused(`${fault.reason} (${fault.code})`);
  if (fault.code === 'Server' || fault.code === 'Receiver') return new CarrierTransientError(`GLS Poland failed: ${fault.reason}`);
  const { message, errors } = refusal(fault);
  return new GlsPlRefusedError(fault, message, errors);
}

/** The only GLS Poland code that does network I/O: one method per ADE operation, each under the channel's session. */
export class GlsPlClient {
  private readonly http: CarrierHttp;
  private readonly base: string;
  private readonly session: TokenSource;

  constructor(private readonly settings: GlsPlSettings, private readonly ctx: CarrierContext) {
    this.base = resolveBaseUrl({ name: 'GLS Poland', baseUrls: GLS_PL_BASE_URLS }, settings);
    this.http = new CarrierHttp('gls_pl', this.base, ctx, this.secrets());
    this.session = {
      credentials: [settings.username, settings.password],
      fetchToken: async (http) => {
        const body = await soapCall(http, ADE_PATH, ADE_SERVICE, { name: 'adeLogin', content: { user_name: settings.username, user_password: settings.password } })
          .catch((err: unknown) => { throw err instanceof SoapFault ? faultError(err, parseGlsPlFault) : err; });
        const token = xmlString(xmlObject(xmlObject(body.adeLoginResponse).return).session);
        if (!token) throw new CarrierTransientError('GLS Poland answered adeLogin without a session');
        return { token, expiresInSeconds: SESSION_SECONDS };
      },
    };
  }

  private secrets(...more: string[]): string[] {
    return [this.settings.password, this.settings.trackingPassword ?? '', ...more].filter((s) => s !== '');
  }

  /** One ADE operation with the session as its first element → its response element; an expired session means one login more. */
  private call(name: string, content: XmlElement, refusal: FaultReader = parseGlsPlFault): Promise<XmlObject> {
    return this.http.withToken(this.session, async (session, retried) => {
      // the session id travels in the body: redacted from traces like the password
      const http = new CarrierHttp('gls_pl', this.base, this.ctx, this.secrets(session));
      const part: SoapPart = { name, content: { session, ...content } };
      try {
        return xmlObject((await soapCall(http, ADE_PATH, ADE_SERVICE, part))[`${name}Response`]);
      } catch (err) {
        if (!(err instanceof SoapFault)) throw err;
        if (SESSION_FAULTS.has(err.code) && !retried) throw new TokenRejected();
        throw faultError(err, refusal);
      }
    });
  }

  /** adeServices_GetMaxParcelWeights: cheap, and it needs a session, so it proves the login. */
  async checkCredentials(): Promise<void> {
    await this.call('adeServices_GetMaxParcelWeights', {});
  }

  /** adePreparingBox_Insert: the consignment lands in the preparing box; its id comes back, no parcel numbers yet. */
  async insert(consign: XmlElement): Promise<string> {
    return parseConsignId(await this.call('adePreparingBox_Insert', { consign_prep_data: consign }));
  }

  /** adePreparingBox_GetConsignIDs: at most 100 ids below `idStart` (0: the newest), newest first. */
  async consignIds(idStart = 0): Promise<string[]> {
    return parseIds(await this.call('adePreparingBox_GetConsignIDs', { id_start: idStart }));
  }

  async consign(id: string): Promise<GlsPlConsignView> {
    return parseConsign(await this.call('adePreparingBox_GetConsign', { id }));
  }

  /** Whether the preparing box still holds the consignment: a pickup takes it out for good, as a delete does. */
  async inPreparingBox(id: string): Promise<boolean> {
    return this.consign(id).then(() => true, (err: unknown) => {
      if (err instanceof GlsPlRefusedError && err.fault.code === 'err_cons_not_found') return false;
      throw err;
    });
  }

  /**
   * adePickup_Create: the consignments leave the preparing box for a new pickup, and GLS receives their data. ADE
   * takes a consignment into one pickup only: one no longer in the box is refused (err_cons_not_found).
   */
  async createPickup(consignIds: readonly string[], desc: string): Promise<string> {
    return parsePickupId(await this.call('adePickup_Create', { consigns_ids: { items: consignIds }, desc }, parseGlsPlHandOverFault));
  }

  /** adePickup_GetIDs: at most 100 pickup ids below `idStart` (0: the newest), newest first. */
  async pickupIds(idStart = 0): Promise<string[]> {
    return parseIds(await this.call('adePickup_GetIDs', { id_start: idStart }, parseGlsPlHandOverFault));
  }

  async pickup(id: string): Promise<GlsPlPickupView> {
    return parsePickup(await this.call('adePickup_Get', { id }, parseGlsPlHandOverFault));
  }

  /** adePickup_GetReceipt: the pickup's hand-over receipt ("potwierdzenie nadania"), a PDF, any number of times. */
  async receipt(pickupId: string, mode: string): Promise<Buffer> {
    return parseReceipt(await this.call('adePickup_GetReceipt', { id: pickupId, mode }, parseGlsPlHandOverFault));
  }

  /** adeCourier_Order: a courier for `date` to collect `parcelAmount` parcels; ADE answers only whether it took the order. */
  async orderCourier(parcelAmount: number, date: string): Promise<boolean> {
    return parseCourierOrdered(await this.call('adeCourier_Order', { parcelamount: parcelAmount, date }, parseGlsPlHandOverFault));
  }

  /** adePreparingBox_GetConsignLabelsExt: one label file per parcel; parcels without numbers get them now. */
  async labels(id: string, format: LabelFormat): Promise<GlsPlParcelLabel[]> {
    return parseParcelLabels(await this.call('adePreparingBox_GetConsignLabelsExt', { id, mode: GLS_PL_LABEL_MODES[format] }));
  }

  /** adePreparingBox_DeleteConsign: possible while the consignment is in the preparing box. */
  async deleteConsign(id: string): Promise<void> {
    parseConsignId(await this.call('adePreparingBox_DeleteConsign', { id }));
  }

  /** adeParcelShop_SearchByZip: the ParcelShops near a post code of `country`. */
  async parcelShopsByZip(country: string, zipcode: string): Promise<PickupPoint[]> {
    return parseParcelShops(await this.call('adeParcelShop_SearchByZip', { country, zipcode }, parsePointFault));
  }

  /** adeParcelShop_GetByCountry: every ParcelShop of `country`. */
  async parcelShopsOfCountry(country: string): Promise<PickupPoint[]> {
    return parseParcelShops(await this.call('adeParcelShop_GetByCountry', { country }, parsePointFault));
  }

  /** adeParcelShop_SearchByID: one ParcelShop; undefined when ADE knows no such id. */
  async parcelShop(id: string): Promise<PickupPoint | undefined> {
    try {
      return pickupPointOfParcelShop(xmlObject(await this.call('adeParcelShop_SearchByID', { id }, parsePointFault)).return);
    } catch (err) {
      if (err instanceof GlsPlRefusedError && err.fault.code === POINT_NOT_FOUND) return undefined;
      throw err;
    }
  }

  /** GLS Track & Trace by parcel number; undefined when GLS knows no such reference (404). */
  async track(number: string): Promise<GlsTrackingAnswer | undefined> {
    const { trackingUsername, trackingPassword } = this.settings;
    if (!trackingUsername || !trackingPassword) {
      throw new CarrierRefusedError('GLS Poland tracking needs the channel\'s GLS Track & Trace credentials', {
        'settings.trackingUsername': ['required to track GLS Poland parcels'],
      });
    }
    const http = new CarrierHttp('gls_pl', this.settings.baseUrl ?? GLS_TRACKING_BASE_URL, this.ctx, this.secrets());
    const res = await http.call('GET', `${GLS_TRACKING_PATH}${encodeURIComponent(number)}`, {
      headers: { ...basicAuthorization(trackingUsername, trackingPassword), accept: 'application/json' },
    });
    if (res.status === 404) return undefined;
    if (res.status === 401 || res.status === 403) {
      throw new CarrierCredentialsRefusedError('GLS Track & Trace refused the tracking credentials', {
        'settings.trackingUsername': ['refused by GLS Track & Trace'], 'settings.trackingPassword': ['refused by GLS Track & Trace'],
      });
    }
    const answer = jsonOrUndefined<GlsTrackingAnswer>(res);
    if (res.status !== 200 || !answer) throw new CarrierTransientError(`GLS Track & Trace answered HTTP ${res.status}`);
    return answer;
  }
}
