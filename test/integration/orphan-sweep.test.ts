import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { LOCAL_BUCKET } from '../../local/runtime';
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
});
