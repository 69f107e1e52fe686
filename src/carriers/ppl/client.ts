import { resolveBaseUrl } from '../base-url.js';
import { CarrierHttp, jsonOrUndefined, type CarrierCall, type TokenAuth } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { resolveLocation, type CarrierResponse } from '../http.js';
import type { CarrierContext } from '../types.js';
import type { PplAccessPoint } from './access-points.js';
import type { PplOrderRequest } from './dispatch.js';
import type { PplBatchRequest } from './request.js';
import { parseProblem, type BatchStatusBody, type PplTrackedShipment, type ProblemDetails } from './response.js';
import type { PplSettings } from './settings.js';

/** CPL API hosts (https://ppl-cpl-api-en.apidog.io); declared here, the provider definition reads them. */
export const PPL_BASE_URLS = {
  production: 'https://api.dhl.com/ecs/ppl/myapi2',
  sandbox: 'https://api-dev.dhl.com/ecs/ppl/myapi2',
};

/** PPL refused the client id or secret: a refusal of the channel's settings, wherever it happens. */
export class PplCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(reason: string) {
    super(`PPL refused the credentials: ${reason}`, { 'settings.clientSecret': ['refused by PPL'] });
  }
}

/** The order batch's import state per order (get-order-status-13601482e0). */
export interface OrderBatchStatusBody {
  items?: { referenceId?: string; importState?: string; errorMessage?: string; errorCode?: string }[];
}

/** The only PPL code that does network I/O: one method per CPL API operation. */
export class PplClient {
  private readonly http: CarrierHttp;
  private readonly auth: TokenAuth;

  constructor(settings: PplSettings, ctx: CarrierContext) {
    this.http = new CarrierHttp('ppl', resolveBaseUrl({ name: 'PPL', baseUrls: PPL_BASE_URLS }, settings), ctx, [settings.clientSecret]);
    // Tokens live 30 minutes and PPL allows 12 token requests a minute: the kit caches one per channel.
    this.auth = {
      credentials: [settings.clientId, settings.clientSecret],
      present: (token) => ({ authorization: `Bearer ${token}` }),
      fetchToken: async (http) => {
        const res = await http.call('POST', '/login/getAccessToken', {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'client_credentials', client_id: settings.clientId, client_secret: settings.clientSecret, scope: 'myapi2' }),
        });
        if (res.status === 400 || res.status === 401 || res.status === 403) {
          const body = jsonOrUndefined<{ error_description?: string; error?: string }>(res);
          throw new PplCredentialsRefused(body?.error_description ?? body?.error ?? `HTTP ${res.status}`);
        }
        if (res.status !== 200) throw new CarrierTransientError(`PPL token endpoint answered HTTP ${res.status}`);
        const body = res.json<{ access_token: string; expires_in: number }>();
        return { token: body.access_token, expiresInSeconds: body.expires_in };
      },
    };
  }

  private authed(method: string, path: string, init?: CarrierCall): Promise<CarrierResponse> {
    return this.http.authed(this.auth, method, path, init);
  }

  private refused(res: CarrierResponse): CarrierRefusedError {
    const { message, errors } = parseProblem(jsonOrUndefined<ProblemDetails>(res) ?? {}, res.status);
    return new CarrierRefusedError(message, errors);
  }

  async checkCredentials(): Promise<void> {
    const res = await this.authed('GET', '/codelist/product?Limit=1&Offset=0');
    if (res.status === 401 || res.status === 403) throw new PplCredentialsRefused(`HTTP ${res.status}`);
    if (res.status !== 200) throw this.refused(res);
  }

  /** `POST /shipment/batch` → the batch id from the Location header. */
  async submitBatch(request: PplBatchRequest): Promise<string> {
    const res = await this.authed('POST', '/shipment/batch', { json: request });
    if (res.status !== 201) throw this.refused(res);
    const location = res.headers.get('location');
    if (!location) throw new CarrierTransientError('PPL accepted the batch without a Location header');
    return resolveLocation(this.http.base, location).split('/').pop()!;
  }

  async batchStatus(batchId: string): Promise<BatchStatusBody> {
    const res = await this.authed('GET', `/shipment/batch/${encodeURIComponent(batchId)}`);
    if (res.status !== 200) throw this.refused(res);
    return res.json();
  }

  /** A label document by the URL PPL gave (a parcel's `labelUrl` or the batch's `completeLabel`). */
  async label(labelUrl: string): Promise<Buffer> {
    const res = await this.authed('GET', labelUrl);
    if (res.status !== 200) throw this.refused(res);
    return res.body;
  }

  /** `POST /order/batch` (create-an-order-13601481e0) → the order batch id from the Location header. */
  async submitOrderBatch(request: PplOrderRequest): Promise<string> {
    const res = await this.authed('POST', '/order/batch', { json: request });
    if (res.status !== 201) throw this.refused(res);
    const location = res.headers.get('location');
    if (!location) throw new CarrierTransientError('PPL accepted the order without a Location header');
    return resolveLocation(this.http.base, location).split('/').pop()!;
  }

  /** `GET /order/batch/{batchId}` (get-order-status-13601482e0). */
  async orderBatchStatus(batchId: string): Promise<OrderBatchStatusBody> {
    const res = await this.authed('GET', `/order/batch/${encodeURIComponent(batchId)}`);
    if (res.status !== 200) throw this.refused(res);
    return res.json();
  }

  /** `GET /order?OrderReferences=…` (order-tracking-13601480e0): the number of an order placed under our reference, if any. */
  async orderNumberByReference(reference: string): Promise<string | undefined> {
    const params = new URLSearchParams({ OrderReferences: reference, Limit: '10', Offset: '0' });
    const res = await this.authed('GET', `/order?${params}`);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw this.refused(res);
    return res.json<{ orderNumber?: string; orderState?: string }[]>().find((o) => o.orderState !== 'Canceled')?.orderNumber;
  }

  async cancel(shipmentNumber: string): Promise<void> {
    const res = await this.authed('POST', `/shipment/${encodeURIComponent(shipmentNumber)}/cancel`);
    if (res.status !== 200 && res.status !== 202) throw this.refused(res);
  }

  /** `GET /accessPoint` (list-of-access-points-13601458e0): ParcelShops and ParcelBoxes matching the query. */
  async accessPoints(query: URLSearchParams): Promise<PplAccessPoint[]> {
    const res = await this.authed('GET', `/accessPoint?${query}`);
    if (res.status !== 200) throw this.refused(res);
    return res.json<PplAccessPoint[]>();
  }

  /** `GET /shipment?ShipmentNumbers=…` (≤ 100 per call) or by our reference. */
  async shipments(query: { shipmentNumbers?: string[]; customerReference?: string }): Promise<PplTrackedShipment[]> {
    const params = new URLSearchParams();
    for (const n of query.shipmentNumbers ?? []) params.append('ShipmentNumbers', n);
    if (query.customerReference) params.append('CustomerReferences', query.customerReference);
    params.set('Limit', '100');
    params.set('Offset', '0');
    const res = await this.authed('GET', `/shipment?${params}`);
    if (res.status === 404) return [];
    if (res.status !== 200) throw this.refused(res);
    return res.json<PplTrackedShipment[]>();
  }
}
