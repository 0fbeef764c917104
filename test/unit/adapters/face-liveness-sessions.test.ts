import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoFaceLivenessSessions } from '../../../src/adapters/dynamodb/face-liveness-sessions';
import { keys } from '../../../src/adapters/dynamodb/keys';
import { ConflictError } from '../../../src/domain/errors';
import type { FaceLivenessRecordedResult } from '../../../src/ports/liveness';

const SESSION = '0f8fad5b-d9cb-469f-a165-70867728950e';
const NONCE = '0mhx3k2a1bq3Zk9rT1vYp0Wc7dLs2Ue8XfAa';
const failed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

/** A challenge item as DynamoLivenessChallenges writes it, with what this adapter adds. */
const item = (over: Record<string, unknown> = {}) => ({
  ...keys.livenessChallenge('ver_1', NONCE), entity: 'livenessChallenge', nonce: NONCE, verification_id: 'ver_1', session_hash: 'h', steps: [],
  issued_at: '2026-11-27T10:00:00.000Z', expires_at: '2026-11-27T10:03:00.000Z', provider: 'rekognition', provider_session_id: SESSION, provider_region: 'eu-west-1', ...over,
});
const result: FaceLivenessRecordedResult = { status: 'SUCCEEDED', confidence: 97.5, referenceImageKey: 'documents/ver_1/liveness-n/reference', auditImageKeys: ['documents/ver_1/liveness-n/audit-1'] };

describe('DynamoFaceLivenessSessions', () => {
  const ddb = mockClient(DynamoDBDocumentClient);
  const store = new DynamoFaceLivenessSessions(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'T');
  beforeEach(() => ddb.reset());

  it('names the provider session on its challenge once, for the widget session it was issued to, before it is used', async () => {
    ddb.on(UpdateCommand).resolves({});
    await store.attach('ver_1', NONCE, { sessionHash: 'h', sessionId: SESSION, region: 'eu-west-1' });
    expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input).toEqual({
      TableName: 'T',
      Key: keys.livenessChallenge('ver_1', NONCE),
      UpdateExpression: 'SET provider = :provider, provider_session_id = :sid, provider_region = :region',
      ConditionExpression: 'attribute_exists(PK) AND session_hash = :session AND attribute_not_exists(provider_session_id) AND attribute_not_exists(used_at)',
      ExpressionAttributeValues: { ':provider': 'rekognition', ':sid': SESSION, ':region': 'eu-west-1', ':session': 'h' },
    });
    ddb.on(UpdateCommand).rejects(failed());
    await expect(store.attach('ver_1', NONCE, { sessionHash: 'h', sessionId: SESSION, region: 'eu-west-1' })).rejects.toBeInstanceOf(ConflictError);
  });

  it('records the result, the verdict the attempt limit reads and the use in one conditional write', async () => {
    ddb.on(UpdateCommand).resolves({});
    const done = { sessionHash: 'h', sessionId: SESSION, completedAt: '2026-11-27T10:01:00.000Z', result, passed: true, reason: null };
    expect(await store.complete('ver_1', NONCE, done)).toEqual({ completed: true });
    expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input).toEqual({
      TableName: 'T',
      Key: keys.livenessChallenge('ver_1', NONCE),
      UpdateExpression: 'SET used_at = :now, provider_result = :result, verdict = :verdict',
      ConditionExpression: 'attribute_exists(PK) AND session_hash = :session AND provider_session_id = :sid AND attribute_not_exists(used_at)',
      ExpressionAttributeValues: { ':now': done.completedAt, ':result': result, ':verdict': { passed: true, reasons: [], measures: { confidence: 97.5 } }, ':session': 'h', ':sid': SESSION },
    });
  });

  it('says why a completion was refused: used, or not this widget session\'s', async () => {
    const done = { sessionHash: 'h', sessionId: SESSION, completedAt: '2026-11-27T10:01:00.000Z', result, passed: false, reason: 'provider_session_failed' };
    ddb.on(UpdateCommand).rejects(failed());
    ddb.on(GetCommand).resolvesOnce({ Item: item({ used_at: '2026-11-27T10:00:30.000Z' }) }).resolvesOnce({ Item: item({ session_hash: 'other' }) }).resolvesOnce({});
    expect(await store.complete('ver_1', NONCE, done)).toEqual({ completed: false, reason: 'session_used' });
    expect(await store.complete('ver_1', NONCE, done)).toEqual({ completed: false, reason: 'session_unknown' });
    expect(await store.complete('ver_1', NONCE, done)).toEqual({ completed: false, reason: 'session_unknown' });
  });

  it('finds a session by its id, a SELFIE\'s session, and every image key, among the verification\'s challenges only', async () => {
    ddb.on(QueryCommand).resolves({
      Items: [
        item({ nonce: 'a', provider_session_id: undefined }),
        item({ used_at: '2026-11-27T10:01:00.000Z', provider_result: result, document_id: 'doc_1', verdict: { passed: true, reasons: [], measures: {} } }),
      ],
    });
    expect(await store.find('ver_1', SESSION)).toEqual({
      verificationId: 'ver_1', nonce: NONCE, sessionHash: 'h', provider: 'rekognition', sessionId: SESSION, region: 'eu-west-1',
      issuedAt: '2026-11-27T10:00:00.000Z', expiresAt: '2026-11-27T10:03:00.000Z', completedAt: '2026-11-27T10:01:00.000Z', result, documentId: 'doc_1',
    });
    expect(await store.find('ver_1', 'another')).toBeUndefined();
    expect((await store.forDocument('ver_1', 'doc_1'))?.sessionId).toBe(SESSION);
    expect(await store.imageKeys('ver_1')).toEqual(['documents/ver_1/liveness-n/reference', 'documents/ver_1/liveness-n/audit-1']);
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.verificationPartition('ver_1'), ':from': keys.livenessChallengePrefix, ':to': `${keys.livenessChallengePrefix}~` },
      ConsistentRead: true,
    });
  });
});
