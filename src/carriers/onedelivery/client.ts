import type { FieldErrors } from '../../domain/errors.js';
import type { LabelFormat } from '../../domain/labels.js';
import { resolveBaseUrl } from '../base-url.js';
import { basicAuthorization, CarrierHttp, jsonOrUndefined } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import type { CarrierResponse } from '../http.js';
import type { CarrierContext } from '../types.js';
import type { OnedeliveryBatchRequest, OnedeliveryPackageRequest, OnedeliveryPickupRequest } from './request.js';
import {
  parseRefusal, pragueTime, type OnedeliveryBatchAnswer, type OnedeliveryCreateAnswer, type OnedeliveryError, type OnedeliveryPackageDetail,
  type OnedeliveryPackageListed, type OnedeliveryPickupAnswer,
} from './response.js';
import type { OnedeliverySettings } from './settings.js';

/** WE|DO REST API v2 hosts (nuty456/WeDoApi `definitions/API.java`: PRODV2, TESTV2). */
export const ONEDELIVERY_BASE_URLS = { production: 'https://api.wedo.cz/v2', sandbox: 'https://api.test.wedo.cz/v2' };

/** One pickup place of the account (`GET /pickup-place`: PickupPlaceItemResponse). */
export interface OnedeliveryPickupPlace {
  name?: string;
  code?: string;
  type?: string;
  regular_pickup?: boolean;
}

/** A refusal, with One's HTTP status for the callers that tell them apart. */
export class OnedeliveryRefusedError extends CarrierRefusedError {
  constructor(message: string, errors: FieldErrors, readonly status: number) {
    super(message, errors);
  }
}

/** One refused the API user and key (HTTP 401). */
export class OnedeliveryCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(readonly reason: string) {
    super(`One by Allegro refused the credentials: ${reason}`, { shipping_channel_id: [`One by Allegro refused the channel's credentials: ${reason}`] });
  }
}

/**
 * The only One by Allegro code that does network I/O: one method per API call, HTTP Basic on every call. The pickup
 * place header goes where nuty456/WeDoApi sends it (creating and listing packages, ordering a pickup). One publishes
 * no rate limit.
 */
export class OnedeliveryClient {
  private readonly http: CarrierHttp;
  private readonly authorization: Record<string, string>;
  private readonly pickupPlace: Record<string, string>;

  constructor(settings: OnedeliverySettings, ctx: CarrierContext) {
    this.http = new CarrierHttp('onedelivery', resolveBaseUrl({ name: 'One by Allegro', baseUrls: ONEDELIVERY_BASE_URLS }, settings), ctx, [settings.apiKey]);
    this.authorization = { ...basicAuthorization(settings.apiUser, settings.apiKey), accept: 'application/json' };
    this.pickupPlace = settings.pickupPlaceCode ? { 'x-wedo-pickupplacecode': settings.pickupPlaceCode } : {};
  }

  /** A 2xx answer, or One's refusal thrown (401: the credentials). */
  private async send(method: string, path: string, init: { headers?: Record<string, string>; json?: unknown } = {}): Promise<CarrierResponse> {
    const res = await this.http.call(method, path, { ...init, headers: { ...this.authorization, ...init.headers } });
    if (res.status < 300) return res;
    const body = jsonOrUndefined<OnedeliveryError>(res);
    if (res.status === 401) throw new OnedeliveryCredentialsRefused(body?.message || 'HTTP 401');
    const { message, errors } = parseRefusal(res.status, body);
    throw new OnedeliveryRefusedError(message, errors, res.status);
  }

  private async json<T>(method: string, path: string, init: { headers?: Record<string, string>; json?: unknown } = {}): Promise<T> {
    const res = await this.send(method, path, init);
    const body = jsonOrUndefined<T>(res);
    if (body === undefined) throw new CarrierTransientError(`One by Allegro answered ${path} with HTTP ${res.status} and no JSON`);
    return body;
  }

  /** `GET /pickup-place`: the cheapest authenticated read. */
  async pickupPlaces(): Promise<OnedeliveryPickupPlace[]> {
    const body = await this.json<{ wedo?: { pickup_places?: OnedeliveryPickupPlace[] } }>('GET', 'pickup-place');
    return body.wedo?.pickup_places ?? [];
  }

  /** `POST /package`; with `sendForProcessing` One also sends it in a batch of its own (X-WEDO-Auto-Complete). */
  createPackage(request: OnedeliveryPackageRequest, sendForProcessing: boolean): Promise<OnedeliveryCreateAnswer> {
    const autoComplete: Record<string, string> = sendForProcessing ? { 'x-wedo-auto-complete': 'true' } : {};
    return this.json('POST', 'package', { headers: { ...this.pickupPlace, ...autoComplete }, json: request });
  }

  /** `GET /package?created_after=…` (restapi.html: ISO 8601, One's own Czech time). */
  packagesCreatedAfter(since: number): Promise<OnedeliveryPackageListed[]> {
    return this.json('GET', `package?created_after=${encodeURIComponent(pragueTime.format(since))}`, { headers: this.pickupPlace });
  }

  /** `GET /package?sent=0` (restapi.html: "Je zásilka odeslána ke zpracování?"): the packages no batch has sent for processing yet. */
  unsentPackages(): Promise<OnedeliveryPackageListed[]> {
    return this.json('GET', 'package?sent=0', { headers: this.pickupPlace });
  }

  /** `GET /package/{order_number}`; undefined when One knows no such package. */
  async packageDetail(orderNumber: string): Promise<OnedeliveryPackageDetail | undefined> {
    try {
      return await this.json<OnedeliveryPackageDetail>('GET', `package/${encodeURIComponent(orderNumber)}`);
    } catch (err) {
      if (err instanceof OnedeliveryRefusedError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** `GET /package/{order_number}/labels.{pdf|zpl}`: every parcel's label in one document; `label` is the 10×15 cm PDF layout. */
  async labels(orderNumber: string, format: Exclude<LabelFormat, 'epl'>): Promise<Buffer> {
    const query = format === 'pdf' ? '?format=label' : '';
    return (await this.send('GET', `package/${encodeURIComponent(orderNumber)}/labels.${format}${query}`, { headers: { accept: '*/*' } })).body;
  }

  /** `DELETE /package/{order_number}`: only before the package was sent for processing; a package One no longer has counts as deleted. */
  async deletePackage(orderNumber: string): Promise<void> {
    let answer: { code?: string; order_number?: string }[];
    try {
      answer = await this.json('DELETE', `package/${encodeURIComponent(orderNumber)}`);
    } catch (err) {
      if (err instanceof OnedeliveryRefusedError && err.status === 404) return;
      throw err;
    }
    // per-article code "0" is success (nuty456/WeDoApi DeleteResponse)
    const failed = (Array.isArray(answer) ? answer : []).find((a) => a.code !== undefined && a.code !== '0');
    if (failed) {
      const message = `One by Allegro did not delete package ${failed.order_number ?? orderNumber} (code ${failed.code})`;
      throw new OnedeliveryRefusedError(message, { shipment: [message] }, 200);
    }
  }

  /** `POST /batch` (WeDoApi `createBatch`): sends the packages for processing in a new batch, the close of the day. */
  createBatch(request: OnedeliveryBatchRequest): Promise<OnedeliveryBatchAnswer> {
    return this.json('POST', 'batch', { json: request });
  }

  /** `GET /batch/{number}/manifest.pdf` (WeDoApi `saveBatchManifestPdfByNumber`): the batch's pickup protocol ("svozový protokol"). */
  async batchManifest(number: string): Promise<Buffer> {
    const pdf = (await this.send('GET', `batch/${encodeURIComponent(number)}/manifest.pdf`, { headers: { accept: 'application/pdf' } })).body;
    if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new CarrierTransientError(`One by Allegro answered the protocol of batch ${number} without a PDF`);
    return pdf;
  }

  /** `POST /pickup` (WeDoApi `orderPickup`): a courier on a day at the pickup place, in the window One sets. */
  orderPickup(request: OnedeliveryPickupRequest): Promise<OnedeliveryPickupAnswer> {
    return this.json('POST', 'pickup', { headers: this.pickupPlace, json: request });
  }
}
