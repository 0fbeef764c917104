import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoIdempotencyStore, STALE_CLAIM_SECONDS } from '../../../src/adapters/dynamodb/idempotency-store';

const ddb = mockClient(DynamoDBDocumentClient);
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const conditionFailed = () => Object.assign(new Error('failed'), { name: 'ConditionalCheckFailedException' });

describe('DynamoIdempotencyStore', () => {
  beforeEach(() => ddb.reset());

  it('claims with a condition that also takes over expired records and dead claims', async () => {
    ddb.on(PutCommand).resolves({});
    const store = new DynamoIdempotencyStore(doc, 'T', () => 1_000);
    expect(await store.claim('ci#createVerification', 'k1', 'h')).toEqual({ state: 'claimed' });
    const input = ddb.commandCalls(PutCommand)[0]!.args[0].input;
    expect(input.Item).toMatchObject({ PK: 'IDEM#ci#createVerification#k1', state: 'in-progress', claimed_at: 1_000, ttl: 1_000 + 86_400 });
    expect(input.ConditionExpression).toContain('claimed_at < :stale');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':now': 1_000, ':stale': 1_000 - STALE_CLAIM_SECONDS });
  });

  it('replays a completed response, refuses another request, reports one in progress', async () => {
    const store = new DynamoIdempotencyStore(doc, 'T', () => 1_000);
    ddb.on(PutCommand).rejects(conditionFailed());
    ddb.on(GetCommand).resolvesOnce({ Item: { request_hash: 'h', state: 'done', status_code: 201, body: '{"data":{}}' } }).resolvesOnce({ Item: { request_hash: 'other' } }).resolvesOnce({ Item: { request_hash: 'h', state: 'in-progress' } });
    expect(await store.claim('s', 'k', 'h')).toEqual({ state: 'replay', response: { statusCode: 201, body: '{"data":{}}' } });
    expect(await store.claim('s', 'k', 'h')).toEqual({ state: 'mismatch' });
    expect(await store.claim('s', 'k', 'h')).toEqual({ state: 'in-progress' });
  });

  it('stores the response on completion', async () => {
    ddb.on(UpdateCommand).resolves({});
    await new DynamoIdempotencyStore(doc, 'T').complete('s', 'k', { statusCode: 200, body: 'b' });
    expect(ddb.commandCalls(UpdateCommand)[0]!.args[0].input.ExpressionAttributeValues).toEqual({ ':done': 'done', ':code': 200, ':body': 'b' });
  });
});
