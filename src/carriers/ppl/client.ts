import { createHash } from 'node:crypto';
import { CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { carrierFetch, joinUrl, resolveLocation, type CarrierResponse } from '../http.js';
import { TokenCache } from '../tokens.js';
import type { CarrierContext, ChannelSettings } from '../types.js';
import { parseProblem, type BatchItem, type PplTrackedShipment, type ProblemDetails } from './response.js';
import type { PplBatchRequest } from './request.js';

export const PPL_PRODUCTION_URL = 'https://api.dhl.com/ecs/ppl/myapi2';
export const PPL_SANDBOX_URL = 'https://api-dev.dhl.com/ecs/ppl/myapi2';

/** Tokens live 30 minutes and PPL allows 12 token requests a minute: one cached token per channel. */
const tokens = new TokenCache();

export class PplCredentialsRefused extends Error {}

/** The only PPL code that does network I/O: one method per CPL API operation. */
export class PplClient {
  private readonly base: string;
  private readonly tokenKey: string;
  private readonly secrets: string[];

  constructor(private readonly settings: ChannelSettings, private readonly ctx: CarrierContext) {
    this.base = String(settings.baseUrl ?? (settings.sandboxMode ? PPL_SANDBOX_URL : PPL_PRODUCTION_URL));
    const fingerprint = createHash('sha256').update(`${settings.clientId}\n${settings.clientSecret}\n${this.base}`).digest('hex');
    this.tokenKey = `${ctx.channelId}:${fingerprint}`;
    this.secrets = [String(settings.clientSecret)];
  }

  private call(method: string, url: string, init: { headers?: Record<string, string>; body?: string | URLSearchParams } = {}) {
    return carrierFetch(this.ctx.log, 'ppl', { method, url, timeoutMs: this.ctx.timeoutMs, ...init }, this.secrets);
  }

  private async token(): Promise<string> {
    return tokens.get(this.tokenKey, () => this.ctx.clock.now(), async () => {
      const res = await this.call('POST', joinUrl(this.base, '/login/getAccessToken'), {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials', client_id: String(this.settings.clientId),
          client_secret: String(this.settings.clientSecret), scope: 'myapi2',
        }),
      });
      if (res.status === 400 || res.status === 401 || res.status === 403) {
        const body = safeJson<{ error_description?: string; error?: string }>(res);
        throw new PplCredentialsRefused(body?.error_description ?? body?.error ?? `HTTP ${res.status}`);
      }
      if (res.status !== 200) throw new CarrierTransientError(`PPL token endpoint answered HTTP ${res.status}`);
      const body = res.json<{ access_token: string; expires_in: number }>();
      return { token: body.access_token, expiresInSeconds: body.expires_in };
    });
  }

  /** An authenticated call; a 401 means the token died early: forget it and try once more with a new one. */
  private async authed(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<CarrierResponse> {
    const url = path.startsWith('http') ? path : joinUrl(this.base, path);
    for (let attempt = 1; ; attempt++) {
      const token = await this.token();
      const res = await this.call(method, url, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
      if (res.status !== 401 || attempt === 2) return res;
      tokens.invalidate(this.tokenKey, token);
    }
  }

  private refused(res: CarrierResponse): CarrierRefusedError {
    const { message, errors } = parseProblem(safeJson<ProblemDetails>(res) ?? {}, res.status);
    return new CarrierRefusedError(message, errors);
  }

  async checkCredentials(): Promise<void> {
    const res = await this.authed('GET', '/codelist/product?Limit=1&Offset=0');
    if (res.status === 401 || res.status === 403) throw new PplCredentialsRefused(`HTTP ${res.status}`);
    if (res.status !== 200) throw this.refused(res);
  }

  /** `POST /shipment/batch` → the batch id from the Location header. */
  async submitBatch(request: PplBatchRequest): Promise<string> {
    const res = await this.authed('POST', '/shipment/batch', { headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
    if (res.status !== 201) throw this.refused(res);
    const location = res.headers.get('location');
    if (!location) throw new CarrierTransientError('PPL accepted the batch without a Location header');
    return resolveLocation(this.base, location).split('/').pop()!;
  }

  async batchStatus(batchId: string): Promise<{ items?: BatchItem[] }> {
    const res = await this.authed('GET', `/shipment/batch/${encodeURIComponent(batchId)}`);
    if (res.status !== 200) throw this.refused(res);
    return res.json();
  }

  async label(labelUrl: string): Promise<Buffer> {
    const res = await this.authed('GET', labelUrl);
    if (res.status !== 200) throw this.refused(res);
    return res.body;
  }

  async cancel(shipmentNumber: string): Promise<void> {
    const res = await this.authed('POST', `/shipment/${encodeURIComponent(shipmentNumber)}/cancel`);
    if (res.status !== 200 && res.status !== 202) throw this.refused(res);
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

function safeJson<T>(res: CarrierResponse): T | undefined {
  try {
    return res.json<T>();
  } catch {
    return undefined;
  }
}
