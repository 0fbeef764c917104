import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../../ports/idempotency';
import { keys } from './keys';

/** How long a key is remembered. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;
/** A claim still in progress after this long belongs to a request that died (a Lambda times out at 29 s). */
export const STALE_CLAIM_SECONDS = 60;

export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async claim(scope: string, key: string, requestHash: string): Promise<IdempotencyClaim> {
    const expires = this.now() + IDEMPOTENCY_WINDOW_SECONDS;
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...keys.idempotency(scope, key), entity: 'idempotency', request_hash: requestHash, state: 'in-progress', claimed_at: this.now(), ttl: expires },
          // An expired record (TTL deletion is lazy) counts as absent, and so does the claim of a request that died.
          ConditionExpression: 'attribute_not_exists(PK) OR #ttl < :now OR (#state = :inProgress AND claimed_at < :stale)',
          ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
          ExpressionAttributeValues: { ':now': this.now(), ':inProgress': 'in-progress', ':stale': this.now() - STALE_CLAIM_SECONDS },
        }),
      );
      return { state: 'claimed' };
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    }
    const existing = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.idempotency(scope, key), ConsistentRead: true }));
    const item = existing.Item;
    if (!item) return this.claim(scope, key, requestHash);
    if (item.request_hash !== requestHash) return { state: 'mismatch' };
    if (item.state !== 'done') return { state: 'in-progress' };
    return { state: 'replay', response: { statusCode: item.status_code as number, body: item.body as string } };
  }

  async complete(scope: string, key: string, response: StoredResponse): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: keys.idempotency(scope, key),
        UpdateExpression: 'SET #state = :done, status_code = :code, body = :body',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':done': 'done', ':code': response.statusCode, ':body': response.body },
      }),
    );
  }

  async release(scope: string, key: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: keys.idempotency(scope, key) }));
  }
}
