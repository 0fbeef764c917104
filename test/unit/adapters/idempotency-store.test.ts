import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { committedMarker, DynamoIdempotencyStore, STALE_CLAIM_SECONDS } from '../../../src/adapters/dynamodb/idempotency-store';

const ddb = mockClient(DynamoDBDocumentClient);
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const conditionFailed = () => Object.assign(new Error('failed'), { name: 'ConditionalCheckFailedException' });

describe('DynamoIdempotencyStore', () => {
  beforeEach(() => ddb.reset());

  it('claims with a condition that also takes over expired records and dead claims', async () => {
    ddb.on(PutCommand).resolves({});
    const store = new DynamoIdempotencyStore(doc, 'T', () => 1_000);
    const claimed = await store.claim('ci#createVerification', 'k1', 'h');
    expect(claimed).toEqual({ state: 'claimed', claim: { scope: 'ci#createVerification', key: 'k1', token: expect.any(String) } });
    const input = ddb.commandCalls(PutCommand)[0]!.args[0].input;
    expect(input.Item).toMatchObject({ PK: 'IDEM#ci#createVerification#k1', state: 'in-progress', claimed_at: 1_000, ttl: 1_000 + 86_400 });
    // Each claim is this request's own: a takeover gets another token, and the first request's writes are refused.
    expect(input.Item?.claim_token).toBe(claimed.state === 'claimed' ? claimed.claim.token : undefined);
    expect(input.ConditionExpression).toContain('claimed_at < :stale');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':now': 1_000, ':stale': 1_000 - STALE_CLAIM_SECONDS });
    // The SDK retrying this very put (an attempt that landed, then timed out) finds its own claim, not one "in progress".
    expect(input.ConditionExpression).toContain('claim_token = :token');
    expect(input.ExpressionAttributeValues?.[':token']).toBe(input.Item?.claim_token);
  });

  it('replays a completed response, refuses another request, reports one in progress', async () => {
    const store = new DynamoIdempotencyStore(doc, 'T', () => 1_000);
    ddb.on(PutCommand).rejects(conditionFailed());
    ddb
      .on(GetCommand)
      .resolvesOnce({ Item: { request_hash: 'h', state: 'done', status_code: 201, body: '{"data":{}}' } })
      .resolvesOnce({ Item: { request_hash: 'other' } })
      .resolvesOnce({ Item: { request_hash: 'h', state: 'in-progress' } })
      .resolvesOnce({ Item: { request_hash: 'h', state: 'committed', resource_id: 'ver_1' } });
    expect(await store.claim('s', 'k', 'h')).toEqual({ state: 'replay', response: { statusCode: 201, body: '{"data":{}}' } });
    expect(await store.claim('s', 'k', 'h')).toEqual({ state: 'mismatch' });
    expect(await store.claim('s', 'k', 'h')).toEqual({ state: 'in-progress' });
    expect(await store.claim('s', 'k', 'h')).toEqual({ state: 'committed', resource: 'ver_1' });
  });

  it('stores the response on completion, only under the claim it holds', async () => {
    ddb.on(UpdateCommand).resolves({});
    await new DynamoIdempotencyStore(doc, 'T').complete({ scope: 's', key: 'k', token: 't1' }, { statusCode: 200, body: 'b' });
    const input = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.ExpressionAttributeValues).toEqual({ ':done': 'done', ':code': 200, ':body': 'b', ':token': 't1' });
    expect(input.ConditionExpression).toBe('claim_token = :token');
  });

  it('never releases a committed claim', async () => {
    ddb.on(DeleteCommand).rejects(conditionFailed());
    await new DynamoIdempotencyStore(doc, 'T').release({ scope: 's', key: 'k', token: 't1' });
    const input = ddb.commandCalls(DeleteCommand)[0]!.args[0].input;
    expect(input.ConditionExpression).toContain('#state = :inProgress');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':token': 't1', ':inProgress': 'in-progress' });
  });

  it('adds the committed marker only inside a guarded request', async () => {
    const store = new DynamoIdempotencyStore(doc, 'T');
    expect(committedMarker('ver_1')).toEqual([]);
    const inside = await store.guard({ scope: 's', key: 'k', token: 't1' }, async () => committedMarker('ver_1'));
    expect(inside).toHaveLength(1);
    expect(inside[0]?.Update).toMatchObject({ TableName: 'T', Key: { PK: 'IDEM#s#k', SK: 'IDEM' }, ConditionExpression: expect.stringContaining('claim_token = :token') });
  });
});
