import { resolveBaseUrl } from '../base-url.js';
import { CarrierHttp, jsonOrUndefined, type CarrierCall } from '../carrier-http.js';
import { AuthorizationRequiredError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import type { CarrierResponse } from '../http.js';
import type { CarrierContext } from '../types.js';
import type { AllegroCancelCommand, AllegroCreateCommand, AllegroLabelRequest, AllegroPickupCommand, AllegroPickupProposalsRequest } from './request.js';
import {
  HAND_OVER_REFUSAL, parseRefusal, type AllegroAuthError, type AllegroCommandStatus, type AllegroDeliveryServices, type AllegroErrors, type AllegroPickupProposals, type AllegroShipment,
  type AllegroTrackingAnswer, type RefusalSubject,
} from './response.js';
import type { AllegroSettings } from './settings.js';
import type { AllegroPickupDropOffPoints, AllegroPointCarrier } from './points.js';

/** The REST API hosts (OpenAPI `servers`: https://api.{allegro.pl | allegro.pl.allegrosandbox.pl}). */
export const ALLEGRO_BASE_URLS = {
  production: 'https://api.allegro.pl',
  sandbox: 'https://api.allegro.pl.allegrosandbox.pl',
};

/** Every call and answer of the public API uses Allegro's versioned media type. */
export const ALLEGRO_MEDIA_TYPE = 'application/vnd.allegro.public.v1+json';

/** `userMessage` of Allegro's errors comes in Polish unless another language is asked for (Error400). */
const USER_MESSAGE_LANGUAGE = 'en-US';

/** Waits between command status reads when Allegro sends no `Retry-After` (the OpenAPI makes it at least 1 s). */
const DEFAULT_RETRY_AFTER_MS = 1000;

/** Allegro's suggested wait before the next command status query (`Retry-After`, seconds). */
function retryAfterMs(res: CarrierResponse): number {
  const seconds = Number(res.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_RETRY_AFTER_MS;
}

/**
 * The only Allegro code that does network I/O for shipments: one method per shipment-management call, each as the
 * person who authorised the channel (`CarrierHttp.asUser`: their Bearer token, refreshed once on a 401). Allegro
 * allows 9,000 calls a minute per Client ID; a 429 is retried later like any outage.
 */
export class AllegroClient {
  private readonly http: CarrierHttp;

  constructor(settings: AllegroSettings, ctx: CarrierContext) {
    this.http = new CarrierHttp('allegro', resolveBaseUrl({ name: 'Allegro', baseUrls: ALLEGRO_BASE_URLS }, settings), ctx, [settings.clientSecret]);
  }

  private send(method: string, path: string, body?: unknown, accept = ALLEGRO_MEDIA_TYPE): Promise<CarrierResponse> {
    const init: CarrierCall = {
      headers: { accept, 'accept-language': USER_MESSAGE_LANGUAGE, ...(body !== undefined ? { 'content-type': ALLEGRO_MEDIA_TYPE } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    };
    return this.http.asUser(method, path, init);
  }

  /** A refusal of the call: the person's token (401 even after a refresh), the account (403), or the request (4xx). */
  private refused(res: CarrierResponse, parcelIndexes?: readonly number[], subject?: RefusalSubject): Error {
    const body = jsonOrUndefined<AllegroErrors & AllegroAuthError>(res);
    if (res.status === 401) {
      return new AuthorizationRequiredError(`Allegro refused the person's access token: ${body?.error_description ?? body?.error ?? 'HTTP 401'}`);
    }
    const { message, errors } = parseRefusal(res.status, body, parcelIndexes, subject);
    return new CarrierRefusedError(message, errors);
  }

  private async json<T>(res: CarrierResponse, what: string): Promise<T> {
    const body = jsonOrUndefined<T>(res);
    if (body === undefined) throw new CarrierTransientError(`Allegro answered ${what} with HTTP ${res.status} and no JSON`);
    return body;
  }

  /** `GET /shipment-management/delivery-services`: the seller's delivery methods and agreements. */
  async deliveryServices(): Promise<AllegroDeliveryServices> {
    const res = await this.send('GET', '/shipment-management/delivery-services');
    if (res.status !== 200) throw this.refused(res);
    return this.json(res, 'the delivery services');
  }

  /** `POST …/create-commands`; Allegro answers with the command and how long to wait before asking for its status. */
  async createCommand(command: AllegroCreateCommand, parcelIndexes: readonly number[]): Promise<{ retryAfterMs: number }> {
    const res = await this.send('POST', '/shipment-management/shipments/create-commands', command);
    if (res.status !== 200 && res.status !== 201) throw this.refused(res, parcelIndexes);
    return { retryAfterMs: retryAfterMs(res) };
  }

  /** `GET …/create-commands/{id}`; undefined when Allegro never received the command (404). */
  createStatus(commandId: string): Promise<AllegroCommandStatus | undefined> {
    return this.commandStatus(`/shipment-management/shipments/create-commands/${encodeURIComponent(commandId)}`);
  }

  async cancelCommand(command: AllegroCancelCommand): Promise<{ retryAfterMs: number }> {
    const res = await this.send('POST', '/shipment-management/shipments/cancel-commands', command);
    if (res.status !== 200 && res.status !== 201) throw this.refused(res);
    return { retryAfterMs: retryAfterMs(res) };
  }

  cancelStatus(commandId: string): Promise<AllegroCommandStatus | undefined> {
    return this.commandStatus(`/shipment-management/shipments/cancel-commands/${encodeURIComponent(commandId)}`);
  }

  private async commandStatus(path: string): Promise<AllegroCommandStatus | undefined> {
    const res = await this.send('GET', path);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw this.refused(res);
    return this.json(res, 'a command status');
  }

  /** `GET /shipment-management/shipments/{id}` (ShipmentDto). */
  async shipment(shipmentId: string): Promise<AllegroShipment> {
    const res = await this.send('GET', `/shipment-management/shipments/${encodeURIComponent(shipmentId)}`);
    if (res.status !== 200) throw this.refused(res);
    return this.json(res, 'a shipment');
  }

  /** `POST /shipment-management/label`: one file for all the shipments, in the format they were created with. */
  async labels(request: AllegroLabelRequest): Promise<Buffer> {
    const res = await this.send('POST', '/shipment-management/label', request, 'application/octet-stream');
    if (res.status === 204) throw new CarrierTransientError('Allegro has no label for these shipments yet');
    if (res.status !== 200) throw this.refused(res);
    return res.body;
  }

  /** `POST /shipment-management/pickup-proposals` (getPickupProposals): the slots each shipment's carrier offers; orders nothing. */
  async pickupProposals(request: AllegroPickupProposalsRequest, subject: RefusalSubject = HAND_OVER_REFUSAL): Promise<AllegroPickupProposals[]> {
    const res = await this.send('POST', '/shipment-management/pickup-proposals', request);
    if (res.status !== 200) throw this.refused(res, undefined, subject);
    return this.json(res, 'the pickup proposals');
  }

  /** `POST /shipment-management/pickups/create-commands` (createPickup). */
  async pickupCommand(command: AllegroPickupCommand): Promise<{ retryAfterMs: number }> {
    const res = await this.send('POST', '/shipment-management/pickups/create-commands', command);
    if (res.status !== 200 && res.status !== 201) throw this.refused(res, undefined, HAND_OVER_REFUSAL);
    return { retryAfterMs: retryAfterMs(res) };
  }

  /** `GET …/pickups/create-commands/{commandId}` (createPickupStatus); undefined when Allegro never received it (404). */
  pickupStatus(commandId: string): Promise<AllegroCommandStatus | undefined> {
    return this.commandStatus(`/shipment-management/pickups/create-commands/${encodeURIComponent(commandId)}`);
  }

  /** `POST /shipment-management/protocol` (getShipmentProtocol, scope shipments:read): the carrier's protocol, undefined when it has none (204). */
  async protocol(shipmentIds: readonly string[]): Promise<Buffer | undefined> {
    const res = await this.send('POST', '/shipment-management/protocol', { shipmentIds: [...shipmentIds] }, 'application/octet-stream');
    if (res.status === 204) return undefined;
    if (res.status !== 200) throw this.refused(res, undefined, HAND_OVER_REFUSAL);
    return res.body;
  }

  /** `GET /order/carriers/ALLEGRO/points` (getAllegroPickupDropOffPointsGET): every Allegro pickup drop-off point of the carrier. */
  async pickupDropOffPoints(carrier: AllegroPointCarrier): Promise<AllegroPickupDropOffPoints> {
    const res = await this.send('GET', `/order/carriers/ALLEGRO/points?${new URLSearchParams({ carriers: carrier })}`);
    if (res.status !== 200) throw this.refused(res);
    return this.json(res, 'the pickup points');
  }

  /** `GET /order/carriers/{carrierId}/tracking` for at most 20 waybills. */
  async tracking(carrierId: string, waybills: readonly string[]): Promise<AllegroTrackingAnswer> {
    const query = new URLSearchParams(waybills.map((w): [string, string] => ['waybill', w]));
    const res = await this.send('GET', `/order/carriers/${encodeURIComponent(carrierId)}/tracking?${query}`);
    if (res.status !== 200) throw this.refused(res);
    return this.json(res, 'the tracking');
  }
}
