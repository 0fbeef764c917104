/**
 * Domain errors. Each carries a machine `code`; src/http/errors.ts maps codes to HTTP statuses.
 * Messages are safe to show to API clients: they never contain personal data.
 */
export type ErrorCode =
  | 'NOT_FOUND'
  | 'WRONG_FLOW'
  | 'INVALID_STATE'
  | 'BAD_REQUEST'
  | 'VALIDATION'
  | 'CONFLICT'
  | 'UNAVAILABLE'
  | 'UNAUTHORIZED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_REQUESTS';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

/** The resource exists but belongs to another flow than the one in the path. */
export class WrongFlowError extends DomainError {
  /**
   * `actualFlow` is the flow the resource belongs to: the HTTP layer answers 404 instead when the
   * caller's token may not see that flow (the 400 would tell it that the id exists elsewhere).
   */
  constructor(
    readonly resource: 'Verification' | 'Document',
    flow: string,
    readonly actualFlow: string,
  ) {
    super('WRONG_FLOW', `${resource} does not belong to flow '${flow}'`);
  }
}

/** The action is not allowed in the resource's current status. */
export class InvalidStateError extends DomainError {
  constructor(message: string) {
    super('INVALID_STATE', message);
  }
}

export class BadRequestError extends DomainError {
  constructor(message: string) {
    super('BAD_REQUEST', message);
  }
}

/** Field errors keyed by dotted path, e.g. `{ "person.first_name": ["is required"] }`. */
export type FieldErrors = Record<string, string[]>;

export class ValidationError extends DomainError {
  constructor(
    readonly errors: FieldErrors,
    message = 'The given data was invalid.',
  ) {
    super('VALIDATION', message);
  }
}

/** A concurrent write won; the caller may re-read and retry. */
export class ConflictError extends DomainError {
  constructor(message = 'The resource was changed concurrently; retry the request') {
    super('CONFLICT', message);
  }
}

/** A pipeline run was superseded by a newer run or a manual action: its work is dropped. */
export class StaleRunError extends DomainError {
  constructor() {
    super('CONFLICT', 'The processing run was superseded');
  }
}

/** A backing service is throttling or unavailable even after retries: the client should retry later. */
export class ServiceUnavailableError extends DomainError {
  /** Set by the readiness check: each dependency and whether it answered (`/health` shows it). */
  constructor(readonly dependencies?: Record<string, 'ok' | 'unavailable'>) {
    super('UNAVAILABLE', 'The service is busy; retry in a moment');
  }
}

export class UnauthorizedError extends DomainError {
  constructor() {
    super('UNAUTHORIZED', 'Unauthorized');
  }
}

/**
 * The request body is not in a media type the route reads (JSON routes require `application/json`):
 * refusing it keeps a cross-site `text/plain` form post, which needs no preflight, from reaching the use case.
 */
export class UnsupportedMediaTypeError extends DomainError {
  constructor(message: string) {
    super('UNSUPPORTED_MEDIA_TYPE', message);
  }
}

/**
 * The caller asked too often (a widget session's failed liveness challenges): nothing was done, and
 * `retryAfterSeconds` says when asking again can succeed.
 */
export class TooManyRequestsError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('TOO_MANY_REQUESTS', message);
  }
}

/** Collects field errors and throws one ValidationError when any were added. */
export class FieldErrorCollector {
  readonly errors: FieldErrors = {};
  /** Adds a message once per path (two rules may find the same fault). */
  add(path: string, message: string): void {
    const list = (this.errors[path] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw new ValidationError(this.errors);
  }
}
