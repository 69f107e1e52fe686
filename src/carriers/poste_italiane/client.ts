import { resolveBaseUrl } from '../base-url.js';
import { CarrierHttp, jsonOrUndefined, type CarrierCall, type TokenAuth } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import type { CarrierResponse } from '../http.js';
import type { CarrierContext } from '../types.js';
import type { PosteDeliveryPointAnswer } from './delivery-points.js';
import type { PostePickupAnswer, PostePickupFilter, PostePickupReport, PostePickupRequest } from './pickup.js';
import type { PosteCreateRequest } from './request.js';
import { isRefusal, parseRefusal, type PosteCreateAnswer, type PosteGatewayError, type PosteTrackAnswer } from './response.js';
import type { PosteItalianeSettings } from './settings.js';

/** Poste Delivery Business hosts (mlocati/MLPosteDeliveryExpress `Library/Service/JsonHttpClient.cs`). */
export const POSTE_BASE_URLS = {
  production: 'https://apiw.gp.posteitaliane.it/gp/internet',
  sandbox: 'https://apid.gp.posteitaliane.it/dev/kindergarden',
};

/** The `scope` a session is asked for, per environment (JsonHttpClient.cs). */
const SESSION_SCOPES = {
  production: 'https://postemarketplace.onmicrosoft.com/d6a78063-5570-4a87-bbd7-07326e6855d1/.default',
  sandbox: 'api://8f0f2c58-19a8-45ef-9f9e-8bcb0acc7657/.default',
};

/** Poste refused the client id and secret at `POST user/sessions` (`error: unauthorized_client`). */
export class PosteCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(readonly reason: string) {
    super(`Poste Italiane refused the credentials: ${reason}`, { shipping_channel_id: [`Poste Italiane refused the channel's credentials: ${reason}`] });
  }
}

interface SessionAnswer extends PosteGatewayError {
  token_type?: string;
  expires_in?: number;
  access_token?: string;
}

/**
 * The only Poste Italiane code that does network I/O: one method per API call. Every call carries the
 * `POSTE_ClientID` header; business calls add the session token in `Authorization`, without a scheme, as
 * JsonHttpClient.cs sends it. Poste publishes no rate limits; a 429 is retried later.
 */
export class PosteClient {
  private readonly http: CarrierHttp;
  private readonly auth: TokenAuth;
  private readonly clientHeader: Record<string, string>;

  constructor(settings: PosteItalianeSettings, ctx: CarrierContext) {
    this.http = new CarrierHttp('poste_italiane', resolveBaseUrl({ name: 'Poste Italiane', baseUrls: POSTE_BASE_URLS }, settings), ctx, [settings.secretId]);
    this.clientHeader = { POSTE_ClientID: settings.clientId, accept: 'application/json' };
    const scope = settings.sandboxMode ? SESSION_SCOPES.sandbox : SESSION_SCOPES.production;
    this.auth = {
      credentials: [settings.clientId, settings.secretId],
      present: (token) => ({ ...this.clientHeader, authorization: token }),
      fetchToken: async (http) => {
        const res = await http.call('POST', 'user/sessions', {
          headers: this.clientHeader,
          json: { clientId: settings.clientId, secretId: settings.secretId, scope, grantType: 'client_credentials' },
        });
        const body = jsonOrUndefined<SessionAnswer>(res);
        // a refused login comes back as `{error, error_description}`, even with HTTP 200 (JsonHttpClient.cs reads it there)
        if (body?.error || res.status === 400 || res.status === 401 || res.status === 403) {
          throw new PosteCredentialsRefused(body?.error_description || body?.error || `HTTP ${res.status}`);
        }
        if (res.status !== 200 || body?.token_type !== 'Bearer' || !body.access_token) {
          throw new CarrierTransientError(`Poste Italiane answered user/sessions with HTTP ${res.status} and no session`);
        }
        return { token: body.access_token, expiresInSeconds: body.expires_in ?? 3599 };
      },
    };
  }

  private authed(method: string, path: string, init?: CarrierCall): Promise<CarrierResponse> {
    return this.http.authed(this.auth, method, path, init);
  }

  private refused(res: CarrierResponse): CarrierRefusedError {
    const { message, errors } = parseRefusal(res.status, jsonOrUndefined(res));
    return new CarrierRefusedError(message, errors);
  }

  /** The list of countries (`international/nations`, a POST without body as Country/Fetcher.cs sends it) is the cheapest authenticated read. */
  async checkCredentials(): Promise<void> {
    const res = await this.authed('POST', 'postalandlogistics/parcel/international/nations', { body: '' });
    if (res.status === 401 || res.status === 403) throw new PosteCredentialsRefused(`HTTP ${res.status}`);
    if (res.status !== 200) throw this.refused(res);
  }

  /** `POST postalandlogistics/parcel/waybill`: errors come in `result` and in each waybill, whatever the HTTP status. */
  async createWaybills(request: PosteCreateRequest): Promise<PosteCreateAnswer> {
    const res = await this.authed('POST', 'postalandlogistics/parcel/waybill', { json: request });
    const body = jsonOrUndefined<PosteCreateAnswer>(res);
    if (res.status >= 400 || body === undefined || isRefusal(body)) throw this.refused(res);
    return body;
  }

  /** The label behind a waybill's `downloadURL`: a signed link, fetched without the session (Waybill/Downloader.cs). */
  async label(downloadUrl: string): Promise<Buffer> {
    const res = await this.http.call('GET', downloadUrl);
    if (res.status !== 200) throw new CarrierRefusedError(`Poste Italiane's label link answered HTTP ${res.status}`, { label_format: [`Poste Italiane: the label could not be downloaded (HTTP ${res.status})`] });
    return res.body;
  }

  /** `POST postalandlogistics/parcel/pickup` (PickupBooking/Submitter.cs): the outcome is in the body's `result`, read by the caller. */
  async bookPickup(request: PostePickupRequest): Promise<PostePickupAnswer> {
    return this.pickupCall('postalandlogistics/parcel/pickup', request);
  }

  /** `POST postalandlogistics/parcel/pickupReport` (PickupBooking/Finder.cs): the bookings the filter matches. */
  async pickupReport(filter: PostePickupFilter): Promise<PostePickupReport> {
    return this.pickupCall('postalandlogistics/parcel/pickupReport', { pickupFilter: filter });
  }

  /** Both pickup calls answer 200 with OK or KO in the body; anything else is the gateway's refusal. */
  private async pickupCall<T>(path: string, json: unknown): Promise<T> {
    const res = await this.authed('POST', path, { json });
    const body = jsonOrUndefined<T>(res);
    if (res.status !== 200) {
      // the gateway names no field of a booking: what it refuses is the pickup, unless it is the channel's credentials
      const { message, errors } = parseRefusal(res.status, body as PosteGatewayError | undefined);
      throw new CarrierRefusedError(message, errors.shipment ? { pickup: errors.shipment } : errors);
    }
    if (body === undefined) throw new CarrierTransientError(`Poste Italiane answered ${path} with a body that is not JSON`);
    return body;
  }

  /** `GET postalandlogistics/parcel/deliveryPoint` for one CAP and point type (DeliveryPoint/Finder.cs); a KO is read by the caller. */
  async deliveryPoints(zipCode: string, serviceType: string): Promise<PosteDeliveryPointAnswer> {
    const res = await this.authed('GET', `postalandlogistics/parcel/deliveryPoint?${new URLSearchParams({ zipCode, serviceType })}`);
    if (res.status !== 200) throw this.refused(res);
    return res.json<PosteDeliveryPointAnswer>();
  }

  /** `GET postalandlogistics/parcel/tracking` for one waybill with its full history (Tracking/Submitter.cs). */
  async track(waybillNumber: string): Promise<PosteTrackAnswer> {
    const query = new URLSearchParams({ statusDescription: 'E', customerType: 'DQ', waybillNumber, lastTracingState: 'N' });
    const res = await this.authed('GET', `postalandlogistics/parcel/tracking?${query}`);
    if (res.status !== 200) throw this.refused(res);
    return res.json<PosteTrackAnswer>();
  }
}
