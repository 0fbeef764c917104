import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_BUCKET, LOCAL_TABLE } from '../../local/runtime';
import { DynamoFaceLivenessSessions } from '../../src/adapters/dynamodb/face-liveness-sessions';
import { DynamoLivenessChallenges } from '../../src/adapters/dynamodb/liveness-challenges';
import { IMAGE_PREFIX } from '../../src/app/documents';
import { framePrefix, providerImagePrefix } from '../../src/app/liveness';
import { newChallenge } from '../../src/app/liveness-challenge';
import { b64, png } from '../fixtures/images';
import { client, defaultBody, startTestRuntime } from './harness';

/** Grace of this test's sweeps: the real one is an hour (ORPHAN_GRACE_SECONDS); S3 times are whole seconds. */
const GRACE_SECONDS = 2;

describe('orphan-image sweep against the local S3 server and DynamoDB Local', () => {
  let h: Awaited<ReturnType<typeof startTestRuntime>>;
  let s3: S3Client;

  beforeAll(async () => {
    h = await startTestRuntime();
    s3 = new S3Client({
      region: 'us-east-1',
      endpoint: h.runtime.endpoints.s3,
      forcePathStyle: true,
      credentials: h.runtime.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  });
  afterAll(async () => {
    s3?.destroy();
    await h?.stop();
  });

  const put = (key: string) => s3.send(new PutObjectCommand({ Bucket: LOCAL_BUCKET, Key: key, Body: Buffer.from('x'), ContentType: 'image/png' }));
  const stored = async () => ((await s3.send(new ListObjectsV2Command({ Bucket: LOCAL_BUCKET }))).Contents ?? []).map((o) => o.Key as string).sort();

  it('removes images no record names once older than the grace, and keeps young ones, named ones, soft-deleted ones and keys of other kinds', async () => {
    const api = client(h.runtime);
    const upload = async (verification: string, seed: number) => {
      const passport = { person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' }, document: { number: `P${seed}`, country_code: 'GBR', expiration_date: '2031-01-01', type: 'P' } };
      const res = await api('POST', '/api/v1/default/documents', { verification, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(8, 8, seed, passport)) } });
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    };
    const live = (await api('POST', '/api/v1/default/verifications', defaultBody())).body.data.id as string;
    const liveDoc = await upload(live, 1);
    const deleted = (await api('POST', '/api/v1/default/verifications', defaultBody())).body.data.id as string;
    await upload(deleted, 2);
    expect((await api('DELETE', `/api/v1/default/verifications/${deleted}`)).status).toBe(204);
    const named = await stored();
    expect(named).toHaveLength(2);

    // A crash between the image write and the table write: an image under a document id no record has;
    // and one left beside a live document by a replacement whose old image was never removed.
    const crashed = `documents/${live}/doc_01NEVERCOMMITTED0000000000/img_01A-front`;
    const replaced = `documents/${live}/${liveDoc}/img_01OLD-front`;
    const foreign = ['documents/README.txt', `documents/${live}/${liveDoc}/notes.json`, 'reports/r1.pdf'];
    for (const key of [crashed, replaced, ...foreign]) await put(key);
    await new Promise((r) => setTimeout(r, (GRACE_SECONDS + 1.5) * 1000));
    const young = `documents/${live}/doc_01STILLUPLOADING0000000000/img_01B-front`;
    await put(young);

    const result = await h.runtime.sweepOrphansNow({ graceSeconds: GRACE_SECONDS });

    expect(result).toEqual({ examined: 4, removed: 2, unknown: 2 });
    expect(await stored()).toEqual([...named, young, ...foreign].sort());
    // The live document still shows its image.
    const shown = await api('GET', `/api/v1/default/documents/${liveDoc}`);
    expect((await fetch(shown.body.data.url_front)).status).toBe(200);
  });

  it("judges a liveness check's images by its challenge: keeps what an accepted burst or a completed Rekognition session names, removes the rest once the challenge's expiry plus the grace is past; the purge removes the named ones with the verification", async () => {
    const api = client(h.runtime);
    const v = (await api('POST', '/api/v1/default/verifications', defaultBody())).body.data.id as string;
    const challenges = new DynamoLivenessChallenges(h.runtime.doc, LOCAL_TABLE);
    const sessions = new DynamoFaceLivenessSessions(h.runtime.doc, LOCAL_TABLE);
    // The runtime's sweep: the job's ports (src/entries.ts jobs/sweep-orphans), the challenge and session stores among them.
    const sweep = () => h.runtime.sweepOrphansNow({ graceSeconds: GRACE_SECONDS });
    const t = Date.now();
    let issued = 0;
    const issue = async (msAgo: number, rekognition: boolean) => {
      const drawn = newChallenge(v, 'h', t - msAgo);
      const c = rekognition ? { ...drawn, steps: [], expiresAt: new Date(t - msAgo + 180_000).toISOString() } : drawn;
      expect(await challenges.issue(c, issued++)).toBe(true);
      return c.nonce;
    };
    const attach = (nonce: string, sessionId: string) => sessions.attach(v, nonce, { sessionHash: 'h', sessionId, region: 'eu-west-1' });

    // The service's own challenge: one whose burst of two frames was accepted (and a third frame no record names), one never used.
    const used = await issue(600_000, false);
    const frames = framePrefix(v, used);
    const signals = { deviceLabel: null, reportedFps: null, virtualCameraLabel: false };
    expect(await challenges.accept(v, used, { sessionHash: 'h', usedAt: new Date(t - 590_000).toISOString(), frames: { keyPrefix: frames, times: [0, 100] }, signals })).toEqual({ accepted: true });
    const unused = framePrefix(v, await issue(500_000, false));
    // Rekognition: a completed session (and an audit image its result does not name), one never completed, one still running.
    const done = await issue(400_000, true);
    const kept = providerImagePrefix(v, done);
    await attach(done, '0f8fad5b-d9cb-469f-a165-70867728950e');
    const result = { status: 'SUCCEEDED' as const, confidence: 97, referenceImageKey: `${kept}/sid/reference.jpg`, auditImageKeys: [`${kept}/sid/audit_images/1.jpg`] };
    const completion = { sessionHash: 'h', sessionId: '0f8fad5b-d9cb-469f-a165-70867728950e', completedAt: new Date(t - 390_000).toISOString(), result, passed: true, reason: null };
    expect(await sessions.complete(v, done, completion)).toEqual({ completed: true });
    const abandonedNonce = await issue(300_000, true);
    await attach(abandonedNonce, '1f8fad5b-d9cb-469f-a165-70867728950e');
    const abandoned = providerImagePrefix(v, abandonedNonce);
    const runningNonce = await issue(10_000, true);
    await attach(runningNonce, '2f8fad5b-d9cb-469f-a165-70867728950e');
    const running = providerImagePrefix(v, runningNonce);
    // A challenge folder of a verification already purged (no item left).
    const purged = framePrefix('ver_01PURGEDLONGAGO000000000', newChallenge('ver_01PURGEDLONGAGO000000000', 'h', t - 600_000).nonce);

    const keep = [`${frames}00`, `${frames}01`, result.referenceImageKey, ...result.auditImageKeys, `${running}/sid/reference.jpg`];
    const orphans = [`${frames}02`, `${unused}00`, `${kept}/sid/audit_images/2.jpg`, `${abandoned}/sid/reference.jpg`, `${abandoned}/sid/audit_images/1.jpg`, `${purged}00`];
    for (const key of [...keep, ...orphans]) await put(key);
    await new Promise((r) => setTimeout(r, (GRACE_SECONDS + 1.5) * 1000));

    const liveness = async () => (await stored()).filter((k) => k.includes('/liveness-'));
    expect(await liveness()).toEqual([...keep, ...orphans].sort());
    await sweep();
    expect(await liveness()).toEqual([...keep].sort());

    // The purge removes what the records name, with the verification's items.
    expect((await api('DELETE', `/api/v1/default/verifications/${v}`)).status).toBe(204);
    await h.runtime.doc.send(new UpdateCommand({ TableName: LOCAL_TABLE, Key: { PK: `VER#${v}`, SK: 'VER' }, UpdateExpression: 'SET GSI3SK = :sk', ExpressionAttributeValues: { ':sk': `2000-01-01T00:00:00.000000Z#${v}` } }));
    expect((await h.runtime.purgeNow()).purged).toBeGreaterThanOrEqual(1);
    expect(await challenges.get(v, done)).toBeUndefined();
    // What no record named (the running session's image) is the sweep's once the nonce's life plus the grace is past.
    expect((await stored()).filter((k) => k.startsWith(`${IMAGE_PREFIX}${v}/`))).toEqual([`${running}/sid/reference.jpg`]);
  }, 60_000);
});
