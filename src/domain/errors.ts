/** Errors as typed values; `daemon/errors.ts` maps them to HTTP in one place. */

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(readonly errors: FieldErrors, message = 'The given data was invalid.') {
    super(422, message);
  }
}

export class BadRequestError extends AppError {
  constructor(message = 'Invalid request format.') {
    super(400, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Invalid or missing API key.') {
    super(401, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to perform this action.') {
    super(403, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Resource not found.') {
    super(404, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'Too many requests. Retry later.');
  }
}

/** A carrier could not be reached or timed out; the work is kept and retried. */
export class CarrierUnavailableError extends AppError {
  constructor(message = 'The carrier is unreachable right now; try again later.') {
    super(503, message);
  }
}

/** Collects field errors so every problem is reported at once, not only the first. */
export class FieldErrorCollector {
  // no prototype: a field named `constructor` or `toString` is a path like any other
  readonly errors: FieldErrors = Object.create(null) as FieldErrors;
  private readonly settled: string[] = [];
  add(path: string, message: string): void {
    if (this.settled.some((s) => path === s || path.startsWith(`${s}.`))) return;
    (this.errors[path] ??= []).includes(message) || this.errors[path].push(message);
  }
  /** Errors on this path (and under it) are already said: later checks add nothing there. */
  settle(path: string): void {
    this.settled.push(path);
  }
  merge(errors: FieldErrors): void {
    for (const [path, messages] of Object.entries(errors)) for (const m of messages) this.add(path, m);
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw new ValidationError(this.errors);
  }
}
