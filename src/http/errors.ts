import { DomainError, type ErrorCode, ServiceUnavailableError, TooManyRequestsError, ValidationError } from '../domain/errors';

/** THE mapping from domain error codes to HTTP statuses. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  NOT_FOUND: 404,
  WRONG_FLOW: 400,
  INVALID_STATE: 400,
  BAD_REQUEST: 400,
  VALIDATION: 422,
  // Only after the use case's own retries: the spec has no 409, and the client may simply retry.
  CONFLICT: 400,
  // Not among the spec's statuses, but the honest one: nothing was changed and a retry will do.
  UNAVAILABLE: 503,
  UNAUTHORIZED: 401,
  UNSUPPORTED_MEDIA_TYPE: 415,
  // Routes of our own (the widget's liveness challenge), not the spec's: Retry-After says how long.
  TOO_MANY_REQUESTS: 429,
};

export interface ErrorResponse {
  statusCode: number;
  body: { message: string; errors?: Record<string, string[]>; dependencies?: Record<string, string> };
  /** Seconds until a retry can succeed (429), when the error knows them. */
  retryAfter?: number;
}

/**
 * Headers an error answer carries besides the body: a 503 says when to retry, as API Gateway's own
 * 503s do (lib/rest-api.ts, the authorizer's gateway responses): nothing was changed, and the
 * stall or outage behind it is expected to pass within moments. A 429 says how long its limit holds.
 */
export function errorHeaders(statusCode: number, retryAfter?: number): Record<string, string> {
  if (statusCode === 503) return { 'Retry-After': RETRY_AFTER_SECONDS };
  return retryAfter !== undefined ? { 'Retry-After': String(retryAfter) } : {};
}

/** The seconds a 503 asks the client to wait, on every path that answers one. */
export const RETRY_AFTER_SECONDS = '1';

/** A domain error → its status and `{ message }` (422 adds `errors`); anything else → 500 "Internal error". */
export function toErrorResponse(error: unknown): ErrorResponse & { unexpected: boolean } {
  if (error instanceof ValidationError) {
    return { statusCode: 422, body: { message: error.message, errors: error.errors }, unexpected: false };
  }
  if (error instanceof ServiceUnavailableError && error.dependencies) {
    return { statusCode: 503, body: { message: error.message, dependencies: error.dependencies }, unexpected: false };
  }
  if (error instanceof TooManyRequestsError) {
    return { statusCode: 429, body: { message: error.message }, retryAfter: error.retryAfterSeconds, unexpected: false };
  }
  if (error instanceof DomainError) {
    return { statusCode: STATUS_BY_CODE[error.code], body: { message: error.message }, unexpected: false };
  }
  return { statusCode: 500, body: { message: 'Internal error' }, unexpected: true };
}
