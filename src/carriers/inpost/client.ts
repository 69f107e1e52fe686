import type { FieldErrors } from '../../domain/errors.js';
import type { LabelFormat } from '../../domain/labels.js';
import { resolveBaseUrl } from '../base-url.js';
import { CarrierHttp, jsonOrUndefined } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import type { CarrierResponse } from '../http.js';
import type { CarrierContext } from '../types.js';
import type { InpostPoint } from './points.js';
import type { InpostCalculateRequest, InpostDispatchOrderRequest, InpostShipmentRequest } from './request.js';
import {
  parseRefusal, type InpostCalculatedPrice, type InpostDispatchOrder, type InpostError, type InpostPage, type InpostShipment, type InpostTracking,
} from './response.js';
import type { InpostSettings } from './settings.js';

/** ShipX Poland (18153477 "Authorization / Query Collections"). */
export const INPOST_BASE_URLS = { production: 'https://api-shipx-pl.easypack24.net', sandbox: 'https://sandbox-api-shipx-pl.easypack24.net' };

/** ShipX's largest page (`per_page`) of the organization's shipments. */
export const INPOST_PAGE = 100;

/** A refusal, with ShipX's HTTP status and error key for the callers that tell them apart. */
export class InpostRefusedError extends CarrierRefusedError {
  constructor(message: string, errors: FieldErrors, readonly status: number, readonly key: string | undefined) {
    super(message, errors);
  }
}

/** ShipX refused the token (401 token_invalid) or the organization for it (403 forbidden). */
export class InpostCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(readonly status: number, readonly reason: string) {
    super(`InPost refused the credentials: ${reason}`, { shipping_channel_id: [`InPost refused the channel's credentials: ${reason}`] });
  }
}

/**
 * The only InPost code that does network I/O: one method per ShipX call, the organization's token as a Bearer on
 * every call but the public point list. ShipX publishes no rate limit.
 */
export class InpostClient {
  private readonly http: CarrierHttp;
  private readonly authorization: Record<string, string>;
  private readonly organization: string;

  constructor(settings: InpostSettings, ctx: CarrierContext) {
    this.http = new CarrierHttp('inpost', resolveBaseUrl({ name: 'InPost', baseUrls: INPOST_BASE_URLS }, settings), ctx, [settings.apiToken ?? '']);
    this.authorization = { authorization: `Bearer ${settings.apiToken}`, accept: 'application/json' };
    this.organization = `v1/organizations/${encodeURIComponent(settings.organizationId)}`;
  }

  /** A 2xx answer, or ShipX's refusal thrown (401 and 403: the credentials). */
  private async send(method: string, path: string, init: { json?: unknown; anonymous?: boolean } = {}): Promise<CarrierResponse> {
    const headers = init.anonymous ? { accept: 'application/json' } : this.authorization;
    const res = await this.http.call(method, path, { headers, ...(init.json !== undefined ? { json: init.json } : {}) });
    if (res.status < 300) return res;
    const body = jsonOrUndefined<InpostError>(res);
    if (res.status === 401 || (res.status === 403 && !init.anonymous)) throw new InpostCredentialsRefused(res.status, body?.message || `HTTP ${res.status}`);
    const { message, errors } = parseRefusal(res.status, body);
    throw new InpostRefusedError(message, errors, res.status, body?.error);
  }

  private async json<T>(method: string, path: string, init: { json?: unknown; anonymous?: boolean } = {}): Promise<T> {
    const res = await this.send(method, path, init);
    const body = jsonOrUndefined<T>(res);
    if (body === undefined) throw new CarrierTransientError(`InPost answered ${method} ${path.split('?')[0]} with HTTP ${res.status} and no JSON`);
    return body;
  }

  /** A read that answers undefined for ShipX's 404 (`resource_not_found`). */
  private async found<T>(path: string, anonymous = false): Promise<T | undefined> {
    try {
      return await this.json<T>('GET', path, { anonymous });
    } catch (err) {
      if (err instanceof InpostRefusedError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** `GET /v1/organizations/{id}`: the cheapest read that checks the token and the organization together. */
  organizationDetails(): Promise<{ id?: number; name?: string; services?: string[] }> {
    return this.json('GET', this.organization);
  }

  /** `POST /v1/organizations/{id}/shipments`: answers the shipment at once, `created`; InPost buys its label asynchronously. */
  createShipment(request: InpostShipmentRequest): Promise<InpostShipment> {
    return this.json('POST', `${this.organization}/shipments`, { json: request });
  }

  /** `POST /v1/organizations/{id}/shipments/calculate` (18153505): each asked shipment's price, without creating it. */
  calculatePrices(request: InpostCalculateRequest): Promise<InpostCalculatedPrice[]> {
    return this.json('POST', `${this.organization}/shipments/calculate`, { json: request });
  }

  /** `GET /v1/shipments/{id}`; undefined when ShipX knows no such shipment of this organization. */
  shipment(id: string): Promise<InpostShipment | undefined> {
    return this.found(`v1/shipments/${encodeURIComponent(id)}`);
  }

  /**
   * One page of the organization's shipments created since `since` (`created_at_gteq` takes a Unix timestamp, 18153512),
   * oldest first, at most INPOST_PAGE a page.
   */
  shipmentsCreatedSince(since: number, page: number): Promise<InpostPage<InpostShipment>> {
    const query = new URLSearchParams({
      created_at_gteq: String(Math.floor(since / 1000)), sort_by: 'created_at', sort_order: 'asc', per_page: String(INPOST_PAGE), page: String(page),
    });
    return this.json('GET', `${this.organization}/shipments?${query}`);
  }

  /** `GET /v1/shipments/{id}/label`: every parcel's label in one document; `type` only for PDF (ShipX's A6 or A4 page). */
  async label(id: string, format: LabelFormat, type: 'A6' | 'normal'): Promise<Buffer> {
    // without `type` ShipX prints its normal layout (A4 for lockers, A6 for courier services): A6 is asked for explicitly
    const query = new URLSearchParams({ format, ...(format === 'pdf' && type === 'A6' ? { type } : {}) });
    const res = await this.send('GET', `v1/shipments/${encodeURIComponent(id)}/label?${query}`);
    if (format === 'pdf' && res.body.subarray(0, 5).toString('latin1') !== '%PDF-') throw new CarrierTransientError(`InPost answered the label of shipment ${id} without a PDF`);
    return res.body;
  }

  /**
   * `GET /v1/tracking/{tracking_number}`; undefined for a number ShipX does not know. ShipX needs no token here
   * (shipx-php-sdk `Tracking/Read`), but the channel's is sent, so a refused token shows as such (inferred: a token
   * that is sent is checked).
   */
  tracking(trackingNumber: string): Promise<InpostTracking | undefined> {
    return this.found(`v1/tracking/${encodeURIComponent(trackingNumber)}`);
  }

  /** `GET /v1/points` (public, shipx-php-sdk `Point/GetList` filters); one page. */
  points(query: URLSearchParams): Promise<InpostPage<InpostPoint>> {
    return this.json('GET', `v1/points?${query}`, { anonymous: true });
  }

  /** `GET /v1/points/{name}`; undefined for a name ShipX does not know. */
  point(name: string): Promise<InpostPoint | undefined> {
    return this.found(`v1/points/${encodeURIComponent(name)}`, true);
  }

  /** `POST /v1/organizations/{id}/dispatch_orders`: InPost's courier collects the shipments at the address. */
  createDispatchOrder(request: InpostDispatchOrderRequest): Promise<InpostDispatchOrder> {
    return this.json('POST', `${this.organization}/dispatch_orders`, { json: request });
  }

  /** The organization's dispatch orders that hold a shipment (the list's `shipment_id` filter, shipx-php-sdk `DispatchOrder/GetList`). */
  async dispatchOrdersOf(shipmentId: string): Promise<InpostDispatchOrder[]> {
    const page = await this.json<InpostPage<InpostDispatchOrder>>('GET', `${this.organization}/dispatch_orders?shipment_id=${encodeURIComponent(shipmentId)}`);
    return page.items ?? [];
  }

  /** The dispatch order's printout, the courier's hand-over document (shipx-php-sdk `DispatchOrder/GetPrintout`). */
  async dispatchOrderPrintout(id: string): Promise<Buffer> {
    const query = new URLSearchParams({ dispatch_order_id: id, format: 'Pdf' });
    const pdf = (await this.send('GET', `${this.organization}/dispatch_orders/printouts?${query}`)).body;
    if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new CarrierTransientError(`InPost answered the printout of dispatch order ${id} without a PDF`);
    return pdf;
  }
}
