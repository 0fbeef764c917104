import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { HeldClaim, IdempotencyClaim, IdempotencyStore, StoredResponse } from '../../ports/idempotency';
import { keys } from './keys';
import type { TransactItem } from './transaction';

/** How long a key is remembered. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;
/**
 * A claim still in progress after this long belongs to a request that died: every request ends within
 * its function's 28 s timeout (its SDK calls within the 20 s request budget). A takeover can never
 * repeat a committed change (the committed marker is conditioned on the claim's own token).
 */
export const STALE_CLAIM_SECONDS = 30;

const isConditionFailure = (error: unknown) => (error as { name?: string })?.name === 'ConditionalCheckFailedException';

/** The claim of the request being served, and the table it lives in (one per request: AsyncLocalStorage). */
const guarded = new AsyncLocalStorage<{ claim: HeldClaim; table: string }>();

/**
 * The transaction item that records the current request's claim as committed, for the protecting
 * writes (verification create and save, document create, webhook create) to add to their own
 * transaction: the change and the key commit together or not at all. Conditioned on the claim still
 * being this request's, so that a request whose stale claim was taken over fails instead of
 * committing a second time. Empty outside a guarded request (jobs, the pipeline, a request without a key).
 */
export function committedMarker(resource: string): TransactItem[] {
  const current = guarded.getStore();
  if (!current) return [];
  const { claim, table } = current;
  return [
    {
      Update: {
        TableName: table,
        Key: keys.idempotency(claim.scope, claim.key),
        UpdateExpression: 'SET #state = :committed, resource_id = if_not_exists(resource_id, :resource)',
        ConditionExpression: 'claim_token = :token AND #state IN (:inProgress, :committed)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':committed': 'committed', ':inProgress': 'in-progress', ':resource': resource, ':token': claim.token },
      },
    },
  ];
}

export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async claim(scope: string, key: string, requestHash: string): Promise<IdempotencyClaim> {
    const expires = this.now() + IDEMPOTENCY_WINDOW_SECONDS;
    const token = randomUUID();
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...keys.idempotency(scope, key),
            entity: 'idempotency',
            request_hash: requestHash,
            state: 'in-progress',
            claim_token: token,
            claimed_at: this.now(),
            ttl: expires,
          },
          // An expired record (TTL deletion is lazy) counts as absent, and so does the claim of a request that
          // died before committing anything; a committed one never does (its change happened). The SDK's own
          // retry of this put, after an attempt that landed but timed out, finds its own claim: not "in progress".
          ConditionExpression: 'attribute_not_exists(PK) OR #ttl < :now OR (#state = :inProgress AND (claimed_at < :stale OR claim_token = :token))',
          ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
          ExpressionAttributeValues: { ':now': this.now(), ':inProgress': 'in-progress', ':stale': this.now() - STALE_CLAIM_SECONDS, ':token': token },
        }),
      );
      return { state: 'claimed', claim: { scope, key, token } };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const existing = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.idempotency(scope, key), ConsistentRead: true }));
    const item = existing.Item;
    if (!item) return this.claim(scope, key, requestHash);
    if (item.request_hash !== requestHash) return { state: 'mismatch' };
    if (item.state === 'done') return { state: 'replay', response: { statusCode: item.status_code as number, body: item.body as string } };
    if (item.state === 'committed') return { state: 'committed', resource: item.resource_id as string };
    return { state: 'in-progress' };
  }

  guard<T>(claim: HeldClaim, work: () => Promise<T>): Promise<T> {
    return guarded.run({ claim, table: this.table }, work);
  }

  async complete(claim: HeldClaim, response: StoredResponse): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.idempotency(claim.scope, claim.key),
          UpdateExpression: 'SET #state = :done, status_code = :code, body = :body',
          ConditionExpression: 'claim_token = :token',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':done': 'done', ':code': response.statusCode, ':body': response.body, ':token': claim.token },
        }),
      );
    } catch (error) {
      // Taken over (this request outlived the stale-claim limit): the record is the newer request's.
      if (!isConditionFailure(error)) throw error;
    }
  }

  async release(claim: HeldClaim): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: keys.idempotency(claim.scope, claim.key),
          // Never a committed claim: its change happened, and a retry must be answered from it.
          ConditionExpression: 'claim_token = :token AND #state = :inProgress',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':token': claim.token, ':inProgress': 'in-progress' },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}
