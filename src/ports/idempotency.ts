/** A stored response, replayed for a repeated Idempotency-Key. */
export interface StoredResponse {
  statusCode: number;
  body: string;
}

export type IdempotencyClaim =
  | { state: 'claimed' }
  | { state: 'replay'; response: StoredResponse }
  | { state: 'mismatch' }
  | { state: 'in-progress' };

/**
 * Idempotency records (24 hours): the first request with a key claims it; a repeat with the same
 * request gets the first response; a different request with the same key is refused.
 */
export interface IdempotencyStore {
  claim(scope: string, key: string, requestHash: string): Promise<IdempotencyClaim>;
  complete(scope: string, key: string, response: StoredResponse): Promise<void>;
  /** Forgets a claim whose request failed unexpectedly, so that it may be retried. */
  release(scope: string, key: string): Promise<void>;
}
