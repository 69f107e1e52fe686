import { resolveBaseUrl } from '../base-url.js';
import { basicAuthorization, CarrierHttp, jsonOrUndefined, type CarrierCall } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError } from '../errors.js';
import type { CarrierResponse } from '../http.js';
import type { CarrierContext } from '../types.js';
import { answeredPoints, type DhlServicePoint, type DhlServicePointsAnswer } from './points.js';
import type { DhlPickupRequest, DhlRateRequest, DhlShipmentRequest } from './request.js';
import {
  dhlFieldPath, dhlPickupFieldPath, parseDhlProblem, type DhlCreatedBody, type DhlPickupCreated, type DhlProblem, type DhlRatesBody, type DhlTrackedShipment,
} from './response.js';
import type { DhlSettings } from './settings.js';

/** MyDHL API environments (MyDHL OpenAPI 3.1.1 `servers`); declared here, the provider definition reads them. */
export const DHL_BASE_URLS = {
  production: 'https://express.api.dhl.com/mydhlapi',
  sandbox: 'https://express.api.dhl.com/mydhlapi/test',
};

/** The `x-version` header every operation requires: "Interface version - do not change this field value". */
const INTERFACE_VERSION = '3.1.0';

/** DHL's refusal of an account: "The account number is not found or invalid…" (the OpenAPI's /rates 400 example), "8003: Account not allowed…". */
const ACCOUNT_REFUSAL = /\baccount\b/i;

/** DHL refused the API key or secret (401/403): a refusal of the channel's settings, wherever it happens. */
export class DhlCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(reason: string) {
    super(`DHL Express refused the credentials: ${reason}`, { 'settings.apiKey': ['refused by DHL Express'], 'settings.apiSecret': ['refused by DHL Express'] });
  }
}

/** The only DHL Express code that does network I/O: one method per MyDHL API operation, HTTP Basic on each call. */
export class DhlClient {
  private readonly http: CarrierHttp;
  private readonly headers: Record<string, string>;

  constructor(settings: DhlSettings, ctx: CarrierContext) {
    this.http = new CarrierHttp('dhl', resolveBaseUrl({ name: 'DHL Express', baseUrls: DHL_BASE_URLS }, settings), ctx, [settings.apiSecret]);
    this.headers = { ...basicAuthorization(settings.apiKey, settings.apiSecret), 'x-version': INTERFACE_VERSION, accept: 'application/json' };
  }

  private send(method: string, path: string, init: CarrierCall = {}): Promise<CarrierResponse> {
    return this.http.call(method, path, { ...init, headers: { ...this.headers, ...init.headers } });
  }

  /** A 401/403 is a wrong key or secret; any other refusal carries DHL's messages on our field paths (the shipment's unless told). */
  private refused(res: CarrierResponse, fieldPath = dhlFieldPath, subject = 'the request'): Error {
    const problem = jsonOrUndefined<DhlProblem>(res) ?? {};
    if (res.status === 401 || res.status === 403) return new DhlCredentialsRefused(problem.detail ?? problem.title ?? `HTTP ${res.status}`);
    const { message, errors } = parseDhlProblem(problem, res.status, fieldPath, subject);
    return new CarrierRefusedError(message, errors);
  }

  /**
   * `GET /rates` for the channel's account on the OpenAPI's own example lane and piece, shipping today: cheap, refused
   * without valid credentials (401) and, with DHL's reason, for an account DHL does not know (400).
   */
  async checkAccount(accountNumber: string): Promise<void> {
    const query = new URLSearchParams({
      accountNumber, originCountryCode: 'CZ', originCityName: 'Prague', destinationCountryCode: 'CZ', destinationCityName: 'Prague',
      weight: '5', length: '15', width: '10', height: '5', plannedShippingDate: new Date(this.http.ctx.clock.now()).toISOString().slice(0, 10),
      isCustomsDeclarable: 'false', unitOfMeasurement: 'metric', nextBusinessDay: 'true',
    });
    const res = await this.send('GET', `/rates?${query}`);
    if (res.status === 200) return;
    const reason = jsonOrUndefined<DhlProblem>(res)?.detail;
    if (res.status === 400 && reason && ACCOUNT_REFUSAL.test(reason)) {
      throw new CarrierRefusedError(`DHL Express refused the account number: ${reason}`, { 'settings.accountNumber': [`refused by DHL Express: ${reason}`] });
    }
    throw this.refused(res);
  }

  /**
   * `POST /shipments` (synchronous, 201): the AWB, piece ids and labels. `Message-Reference` carries our shipment id;
   * `fieldPath` reads the pointers of a refusal (a return's differ).
   */
  async createShipment(request: DhlShipmentRequest, messageReference: string, fieldPath = dhlFieldPath): Promise<DhlCreatedBody> {
    const res = await this.send('POST', '/shipments', { json: request, headers: { 'message-reference': messageReference } });
    if (res.status !== 201) throw this.refused(res, fieldPath);
    return res.json<DhlCreatedBody>();
  }

  /** `POST /rates` (200): the shipment's prices and delivery estimate; a refusal lands on the shipment's fields. */
  async rates(request: DhlRateRequest): Promise<DhlRatesBody> {
    const res = await this.send('POST', '/rates', { json: request });
    if (res.status !== 200) throw this.refused(res);
    return res.json<DhlRatesBody>();
  }

  /** `POST /pickups` (201): DHL's dispatch confirmation number; a refusal lands on the dispatch's fields. */
  async createPickup(request: DhlPickupRequest, messageReference: string): Promise<DhlPickupCreated> {
    const res = await this.send('POST', '/pickups', { json: request, headers: { 'message-reference': messageReference } });
    if (res.status !== 201) throw this.refused(res, dhlPickupFieldPath, 'the pickup');
    return res.json<DhlPickupCreated>();
  }

  /**
   * `GET /servicepoints` (Service Point Locator, same credentials): the points answered, [] where DHL finds none
   * (status 201, 202, 600 in a 200 answer). A query DHL calls bad (100, 101) is refused on `pickup_point`.
   */
  async servicePoints(query: URLSearchParams): Promise<DhlServicePoint[]> {
    const res = await this.send('GET', `/servicepoints?${query}`);
    if (res.status !== 200) throw this.refused(res, () => 'pickup_point', 'the service point search');
    const answer = jsonOrUndefined<DhlServicePointsAnswer>(res) ?? {};
    const points = answeredPoints(answer);
    if (points) return points;
    const reason = answer.status?.statusMessage ?? `status ${String(answer.status?.statusCode)}`;
    throw new CarrierRefusedError(`DHL Express refused the service point search: ${reason}`, { pickup_point: [`DHL Express: ${reason}`] });
  }

  /** `GET /tracking` with up to 200 waybill or piece numbers; 404 means DHL knows none of them. */
  async track(query: { shipmentTrackingNumbers?: readonly string[]; pieceTrackingNumbers?: readonly string[] }): Promise<{ shipments?: DhlTrackedShipment[] }> {
    const params = new URLSearchParams();
    for (const n of query.shipmentTrackingNumbers ?? []) params.append('shipmentTrackingNumber', n);
    for (const n of query.pieceTrackingNumbers ?? []) params.append('pieceTrackingNumber', n);
    params.set('trackingView', 'all-checkpoints');
    params.set('levelOfDetail', 'all');
    const res = await this.send('GET', `/tracking?${params}`);
    if (res.status === 404) return { shipments: [] };
    if (res.status !== 200) throw this.refused(res);
    return res.json();
  }
}
