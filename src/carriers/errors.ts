import { CarrierUnavailableError, type FieldErrors } from '../domain/errors.js';

export { CarrierUnavailableError };

/** The carrier said no (a 4xx): permanent until the input changes. Field errors use our paths where known. */
export class CarrierRefusedError extends Error {
  constructor(message: string, readonly errors: FieldErrors = {}) {
    super(message);
    this.name = 'CarrierRefusedError';
  }
}

/** The carrier refused the channel's credentials, on whatever call: the channel's settings need fixing, not the request. */
export class CarrierCredentialsRefusedError extends CarrierRefusedError {
  constructor(message: string, errors: FieldErrors = {}) {
    super(message, errors);
    this.name = 'CarrierCredentialsRefusedError';
  }
}

/**
 * Unreachable, timed out, 429 or 5xx: worth another try, not before `retryAfterMs` when the carrier said so.
 * `carrierStatus` is the carrier's HTTP answer where there was one: unset, nothing tells whether the carrier acted.
 */
export class CarrierTransientError extends CarrierUnavailableError {
  constructor(message: string, readonly retryAfterMs?: number, readonly carrierStatus?: number) {
    super(message);
  }
}

/** The carrier no longer honours the person's refresh token (revoked, expired, replaced). */
export class GrantRevokedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GrantRevokedError';
  }
}

/** The channel acts for a person who has not authorised packdesk, or whose grant is gone: authorise it again. */
export class AuthorizationRequiredError extends CarrierRefusedError {
  constructor(message: string) {
    super(message, { shipping_channel_id: [message] });
    this.name = 'AuthorizationRequiredError';
  }
}
