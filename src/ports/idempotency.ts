/** A stored response, replayed for a repeated Idempotency-Key. */
export interface StoredResponse {
  statusCode: number;
  body: string;
}

/** The claim a request holds on its key: `token` is unique to this request (a takeover gets another). */
export interface HeldClaim {
  scope: string;
  key: string;
  token: string;
}

export type IdempotencyClaim =
  | { state: 'claimed'; claim: HeldClaim }
  | { state: 'replay'; response: StoredResponse }
  /**
   * The first request's change committed (the key was recorded in its transaction) but its response
   * was never stored (a crash, a timeout or a failed write after the commit): the answer is derived
   * from the committed resource (`resource`: the id the write recorded).
   */
  | { state: 'committed'; resource: string }
  | { state: 'mismatch' }
  | { state: 'in-progress' };

/**
 * Idempotency records (24 hours): the first request with a key claims it; a repeat with the same
 * request gets the first response; a different request with the same key is refused. The key is
 * recorded as committed in the same transaction as the change it protects (`guard`), so a retry can
 * never carry the change out a second time, whatever fails after the commit.
 */
export interface IdempotencyStore {
  claim(scope: string, key: string, requestHash: string): Promise<IdempotencyClaim>;
  /**
   * Runs `work` so that the protecting writes it commits (the repositories' create and save
   * transactions) record the claim as committed in the same transaction, conditioned on the claim
   * still being this request's: a request whose stale claim was taken over cannot commit any more.
   */
  guard<T>(claim: HeldClaim, work: () => Promise<T>): Promise<T>;
  /** Stores the response of a claim this request still holds. */
  complete(claim: HeldClaim, response: StoredResponse): Promise<void>;
  /** Forgets a claim whose request failed before committing anything, so that it may be retried. */
  release(claim: HeldClaim): Promise<void>;
}
