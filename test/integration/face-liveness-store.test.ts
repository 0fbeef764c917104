import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { documentClient } from '../../src/adapters/dynamodb/document-client';
import { DynamoFaceLivenessSessions } from '../../src/adapters/dynamodb/face-liveness-sessions';
import { DynamoLivenessChallenges } from '../../src/adapters/dynamodb/liveness-challenges';
import { isFailed, limitedUntil, newChallenge } from '../../src/app/liveness-challenge';
import { dataFolderCredentials } from '../../local/credentials';
import { ensureTable, type LocalDynamo, startDynamo } from '../../local/dynamodb';

const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const SESSION = '0f8fad5b-d9cb-469f-a165-70867728950e';
const result = { status: 'SUCCEEDED' as const, confidence: 97.5, referenceImageKey: 'documents/ver_1/liveness-n/reference', auditImageKeys: ['documents/ver_1/liveness-n/audit-1'] };

/**
 * The provider sessions on the challenge items, against DynamoDB Local: the conditions are real, and
 * the challenge store reads what the sessions store wrote (the attempt limit, the binding of the
 * SELFIE, the purge's keys).
 */
describe('Rekognition sessions on the challenge items (DynamoDB Local)', () => {
  let dir: string;
  let dynamo: LocalDynamo;
  let challenges: DynamoLivenessChallenges;
  let sessions: DynamoFaceLivenessSessions;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'idv-face-liveness-'));
    const { credentials, file } = dataFolderCredentials(dir);
    dynamo = await startDynamo({ dir: undefined, host: '127.0.0.1', credentialsFile: file });
    const client = new DynamoDBClient({ region: 'us-east-1', endpoint: dynamo.endpoint, credentials });
    await ensureTable(client, 'Liveness');
    const doc = documentClient(client);
    challenges = new DynamoLivenessChallenges(doc, 'Liveness');
    sessions = new DynamoFaceLivenessSessions(doc, 'Liveness');
  }, 120_000);

  afterAll(async () => {
    await dynamo?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('attaches a session once to an unused challenge of its widget session, completes it once, and the challenge store sees it', async () => {
    const c = { ...newChallenge('ver_1', 'h', T0), steps: [], expiresAt: new Date(T0 + 180_000).toISOString() };
    expect(await challenges.issue(c, 0)).toBe(true);
    await expect(sessions.attach('ver_1', c.nonce, { sessionHash: 'other', sessionId: SESSION, region: 'eu-west-1' })).rejects.toThrow('changed concurrently');
    await sessions.attach('ver_1', c.nonce, { sessionHash: 'h', sessionId: SESSION, region: 'eu-west-1' });
    await expect(sessions.attach('ver_1', c.nonce, { sessionHash: 'h', sessionId: SESSION, region: 'eu-west-1' })).rejects.toThrow('changed concurrently');
    expect(await sessions.find('ver_1', SESSION)).toMatchObject({ nonce: c.nonce, sessionHash: 'h', sessionId: SESSION, region: 'eu-west-1', completedAt: null, result: null });
    expect(await sessions.find('ver_2', SESSION)).toBeUndefined();

    const done = { sessionHash: 'h', sessionId: SESSION, completedAt: new Date(T0 + 60_000).toISOString(), result, passed: false, reason: 'provider_low_confidence' };
    expect(await sessions.complete('ver_1', c.nonce, { ...done, sessionHash: 'other' })).toEqual({ completed: false, reason: 'session_unknown' });
    expect(await sessions.complete('ver_1', c.nonce, { ...done, sessionId: '00000000-0000-4000-8000-000000000000' })).toEqual({ completed: false, reason: 'session_unknown' });
    const both = await Promise.all([sessions.complete('ver_1', c.nonce, done), sessions.complete('ver_1', c.nonce, done)]);
    expect(both.filter((r) => r.completed)).toHaveLength(1);
    expect(both.find((r) => !r.completed)).toEqual({ completed: false, reason: 'session_used' });

    // The challenge store: used, and failed by its verdict (the attempt limit counts it); frames cannot use it any more.
    const stored = await challenges.get('ver_1', c.nonce);
    expect(stored?.usedAt).toBe(done.completedAt);
    expect(stored?.verdict).toEqual({ passed: false, reasons: ['provider_low_confidence'], measures: { confidence: 97.5 } });
    expect(isFailed(stored!)).toBe(true);
    expect(limitedUntil([stored!], T0 + 61_000)).toBeNull();
    const frames = { sessionHash: 'h', usedAt: new Date(T0 + 70_000).toISOString(), frames: { keyPrefix: 'p', times: [] }, signals: { deviceLabel: null, reportedFps: null, virtualCameraLabel: false } };
    expect(await challenges.accept('ver_1', c.nonce, frames)).toEqual({ accepted: false, reason: 'nonce_used' });

    // The SELFIE bound through the challenge store is found through the sessions store, and the purge gets the images.
    await challenges.bindDocument('ver_1', c.nonce, 'doc_1');
    expect(await sessions.forDocument('ver_1', 'doc_1')).toMatchObject({ sessionId: SESSION, documentId: 'doc_1', result });
    expect(await sessions.imageKeys('ver_1')).toEqual([result.referenceImageKey, ...result.auditImageKeys]);
    // A challenge of the server's own kind in the same partition is none of the sessions store's.
    expect(await challenges.issue(newChallenge('ver_1', 'h', T0 + 1000), 1)).toBe(true);
    expect((await challenges.recent('ver_1', new Date(T0 - 1).toISOString())).challenges).toHaveLength(2);
    expect(await sessions.imageKeys('ver_1')).toHaveLength(2);
  }, 60_000);
});
