import { resolveBaseUrl } from '../base-url.js';
import { basicAuthorization, CarrierHttp, jsonOrUndefined } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import type { FieldErrors } from '../../domain/errors.js';
import type { CarrierContext } from '../types.js';
import type { SpxProductCode } from './codes.js';
import type { SpxCreateRequest } from './request.js';
import { parseRefusal, spxFailure, type SpxCreateAnswer, type SpxEnvelope, type SpxTrackAnswer } from './response.js';
import type { SpxSettings } from './settings.js';

/** The API host (sp-express/php-sdk `ApiRequest::HOST`); no sandbox host is published. */
export const SPX_BASE_URLS = { production: 'https://api.sp.express' };

const CREATE_PATHS: Record<SpxProductCode, string> = {
  'pre-routing': '/V1/courier/create-pre-routing',
  'non-routing': '/V1/courier/create-non-routing',
};

/** 3004: not found or not the caller's; 5001: already cancelled (ErrorCodes.php). */
const NOT_FOUND = 3004;
const ALREADY_CANCELLED = 5001;

/** A refusal, with SP Express's error code for the callers that tell codes apart. */
export class SpxRefusedError extends CarrierRefusedError {
  constructor(message: string, errors: FieldErrors, readonly code: number | null) {
    super(message, errors);
  }
}

/** SP Express refused the login and API key (HTTP 401, or error 1001/1002). */
export class SpxCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(readonly reason: string, readonly code: number | null) {
    super(`SP Express refused the credentials: ${reason}`, { shipping_channel_id: [`SP Express refused the channel's credentials: ${reason}`] });
  }
}

/**
 * The only SP Express code that does network I/O: one method per API call, every call a JSON POST with Basic auth.
 * SP Express allows 60 calls a minute per user (sp-express/php-sdk docs/index.md, tech/v-1-1); a 429 is retried later.
 */
export class SpxClient {
  private readonly http: CarrierHttp;
  private readonly authorization: Record<string, string>;

  constructor(settings: SpxSettings, ctx: CarrierContext) {
    this.http = new CarrierHttp('spx', resolveBaseUrl({ name: 'SP Express', baseUrls: SPX_BASE_URLS }, settings), ctx, [settings.apiKey]);
    this.authorization = basicAuthorization(settings.login, settings.apiKey);
  }

  /** The envelope says how a call went, whatever the HTTP status (as the SDK's ApiRequest reads it). */
  private async post<T>(path: string, body: unknown): Promise<SpxEnvelope<T>> {
    const res = await this.http.call('POST', path, { headers: this.authorization, json: body });
    const envelope = jsonOrUndefined<SpxEnvelope<T>>(res);
    if (envelope === undefined || typeof envelope !== 'object') {
      throw new CarrierTransientError(`SP Express answered ${path} with HTTP ${res.status} and no JSON`);
    }
    const failure = spxFailure(res.status, envelope);
    if (!failure) return envelope;
    if (failure.kind === 'credentials') throw new SpxCredentialsRefused(failure.message, failure.code);
    if (failure.kind === 'transient') throw new CarrierTransientError(`SP Express could not answer ${path} now: ${failure.message}`);
    const { message, errors } = parseRefusal(res.status, envelope);
    throw new SpxRefusedError(message, errors, failure.code);
  }

  /** Tracking nothing is the cheapest authenticated call: any answer but a credential refusal (3001 "no ids" here) accepts the login. */
  async checkCredentials(): Promise<void> {
    try {
      await this.post('/V1/track/courier', { ids: [] });
    } catch (err) {
      if (!(err instanceof SpxRefusedError)) throw err;
    }
  }

  create(productType: SpxProductCode, request: SpxCreateRequest): Promise<SpxEnvelope<SpxCreateAnswer>> {
    return this.post(CREATE_PATHS[productType], request);
  }

  /** `POST /V1/courier/cancel`; a package cancelled before counts as cancelled. */
  async cancel(packageIds: readonly string[]): Promise<void> {
    try {
      await this.post('/V1/courier/cancel', { id: packageIds });
    } catch (err) {
      if (!(err instanceof SpxRefusedError) || err.code !== ALREADY_CANCELLED) throw err;
    }
  }

  /** `POST /V1/track/courier`; a call refused as a whole for unknown ids is an answer with none found. */
  async track(packageIds: readonly string[]): Promise<SpxEnvelope<SpxTrackAnswer>> {
    try {
      return await this.post('/V1/track/courier', { ids: packageIds });
    } catch (err) {
      if (err instanceof SpxRefusedError && err.code === NOT_FOUND) return { result: 'OK', response: { tts: {} } };
      throw err;
    }
  }
}
