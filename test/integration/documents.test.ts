import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_IMAGE_BYTES } from '../../src/app/images';
import { b64, pdf, png } from '../fixtures/images';
import { client, defaultBody, storedImages, useTestRuntime, TIMESTAMP } from './harness';

const t = useTestRuntime();
const api: ReturnType<typeof client> = (...args) => t.api(...args);

const action = { comment: 'ok', email: 'reviewer@example.com' };

async function verification(flow = 'default'): Promise<string> {
  const res = await api('POST', `/api/v1/${flow}/verifications`, flow === 'default' ? defaultBody() : { person: { first_name: 'A', last_name: 'B' } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

function doc(verificationId: string, document: Record<string, unknown>) {
  return { verification: verificationId, document: { context_type: 'PHOTO_ID', type: 1, country: 'fra', front_side_data: b64(png()), ...document } };
}

/** Every object stored for a verification in the local S3 server's folder. */
function storedObjects(verificationId: string): string[] {
  return storedImages(t.h.dataDir, verificationId);
}

describe('create document', () => {
  it('stores the image behind a presigned link valid 1800 s and answers 201 Uploaded', async () => {
    const v = await verification();
    const image = png(16, 16, 7);
    const res = await api('POST', '/api/v1/default/documents', doc(v, { front_side_data: b64(image) }));
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(d).toMatchObject({
      status_label: 'Uploaded',
      verification_id: v,
      url_back: null,
      extracted_data: [],
      decisions: [],
      rules: null,
      document_type: { id: 1, name: 'Passport', type_label: 'Photo ID' },
      country: { name: 'France', iso2: 'FR', iso3: 'FRA' },
    });
    expect(d.id).toMatch(/^doc_/);
    expect(d.created_at).toMatch(TIMESTAMP);
    const url = new URL(d.url_front);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('1800');
    expect(url.pathname).not.toMatch(/Ada|Lovelace|P123/);

    const fetched = await fetch(d.url_front);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(image)).toBe(true);

    const tampered = new URL(d.url_front);
    tampered.pathname = tampered.pathname.replace(/-front$/, '-back');
    expect((await fetch(tampered)).status).toBe(403);
    const forged = new URL(d.url_front);
    forged.searchParams.set('X-Amz-Expires', '3600');
    expect((await fetch(forged)).status).toBe(403);
  });

  it('accepts a double-sided type with both sides and a PDF proof of address', async () => {
    const v = await verification();
    const dl = await api('POST', '/api/v1/default/documents', doc(v, { type: 2, country: 'USA', back_side_data: b64(png(8, 8, 3)) }));
    expect(dl.status).toBe(201);
    expect(dl.body.data.url_back).toMatch(/-back\?/);
    const poa = await api('POST', '/api/v1/default/documents', doc(v, { context_type: 'PROOF_OF_ADDRESS', type: 5, country: 'USA', front_side_data: b64(pdf()) }));
    expect(poa.status).toBe(201);
    expect((await fetch(poa.body.data.url_front)).headers.get('content-type')).toBe('application/pdf');
  });

  it.each([
    ['missing image data', { front_side_data: undefined }, /front_side_data is missing/],
    ['invalid base64', { front_side_data: 'not base64!!' }, /not valid base64/],
    ['bytes that are not an image', { front_side_data: b64(Buffer.from('hello world, not an image')) }, /not a supported image/],
    ['a PDF as photo ID', { front_side_data: b64(pdf()) }, /PDF, which is accepted only for PROOF_OF_ADDRESS/],
    ['a type the flow does not have', { type: 99 }, /Document type 99 is not allowed for flow 'default'/],
    ['a type of another context', { type: 4 }, /not a PHOTO_ID document type/],
    ['a type forbidden for the country', { type: 3, country: 'USA', back_side_data: b64(png()) }, /ID Card is not accepted for country USA/],
    ['a missing back for a double-sided type', { type: 2, country: 'USA' }, /back_side_data is missing/],
    ['an image over the size limit', { front_side_data: b64(Buffer.concat([png(), Buffer.alloc(MAX_IMAGE_BYTES)])) }, /larger than the/],
  ])('returns 400 for %s and stores nothing', async (_label, patch, message) => {
    const v = await verification();
    const res = await api('POST', '/api/v1/default/documents', doc(v, patch));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(storedObjects(v)).toEqual([]);
    expect((await api('GET', `/api/v1/default/verifications/${v}`)).body.data.documents).toEqual([]);
  });

  it('returns 422 for a back side on a single-sided type and for wrong field types', async () => {
    const v = await verification();
    const back = await api('POST', '/api/v1/default/documents', doc(v, { back_side_data: b64(png()) }));
    expect(back.status).toBe(422);
    expect(back.body.errors).toEqual({ 'document.back_side_data': ['must be left out: Passport from FRA is single-sided'] });
    const types = await api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PASSPORT', type: '1', country: 'ZZZ' } });
    expect(types.status).toBe(422);
    expect(Object.keys(types.body.errors).sort()).toEqual(['document.context_type', 'document.country', 'document.type']);
    const missing = await api('POST', '/api/v1/default/documents', {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ verification: ['is required'], document: ['is required'] });
    expect(storedObjects(v)).toEqual([]);
  });

  it('returns 404 for an unknown verification and 400 for another flow', async () => {
    expect((await api('POST', '/api/v1/default/documents', doc('ver_01ARZ3NDEKTSV4RRFFQ69G5FAV', {}))).status).toBe(404);
    const v = await verification('photo-id');
    const res = await api('POST', '/api/v1/default/documents', doc(v, {}));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/does not belong to flow 'default'/);
    expect((await api('POST', '/api/v1/nope/documents', doc(v, {}))).status).toBe(404);
  });

  it('returns 400 once the verification is submitted or canceled', async () => {
    const v = await verification('photo-id');
    expect((await api('POST', '/api/v1/photo-id/documents', doc(v, {}))).status).toBe(201);
    expect((await api('PUT', `/api/v1/photo-id/verifications/${v}/submit`)).status).toBe(200);
    const sub = await api('POST', '/api/v1/photo-id/documents', doc(v, { context_type: 'SELFIE', type: 6 }));
    expect(sub.status).toBe(400);
    expect(sub.body.message).toBe('Verification is not in Started status');
    const c = await verification('photo-id');
    await api('PUT', `/api/v1/photo-id/verifications/${c}/cancel`, action);
    const canceled = await api('POST', '/api/v1/photo-id/documents', doc(c, {}));
    expect(canceled.status).toBe(400);
    expect(canceled.body.message).toBe('Verification is canceled');
  });

  it('keeps one document per context: a second upload is 400 until the first is deleted', async () => {
    const v = await verification();
    const first = await api('POST', '/api/v1/default/documents', doc(v, {}));
    const second = await api('POST', '/api/v1/default/documents', doc(v, { type: 2, country: 'USA', back_side_data: b64(png()) }));
    expect(second.status).toBe(400);
    expect(second.body.message).toMatch(/A PHOTO_ID document already exists/);
    expect(storedObjects(v)).toHaveLength(1);
    expect((await api('DELETE', `/api/v1/default/documents/${first.body.data.id}`)).status).toBe(204);
    expect(storedObjects(v)).toHaveLength(0);
    expect((await api('POST', '/api/v1/default/documents', doc(v, {}))).status).toBe(201);
  });

  it('yields exactly one document and no orphan object from parallel uploads of one context', async () => {
    const v = await verification();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => api('POST', '/api/v1/default/documents', doc(v, { front_side_data: b64(png(8, 8, i)) }))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(5);
    expect((await api('GET', `/api/v1/default/verifications/${v}`)).body.data.documents).toHaveLength(1);
    expect(storedObjects(v)).toHaveLength(1);
  });
});

describe('get, update and delete document', () => {
  it('gets a document, 404 when unknown, 400 from another flow', async () => {
    const v = await verification();
    const d = (await api('POST', '/api/v1/default/documents', doc(v, {}))).body.data;
    const res = await api('GET', `/api/v1/default/documents/${d.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: d.id, status_label: 'Uploaded', decisions: [] });
    expect((await api('GET', '/api/v1/default/documents/doc_01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    for (const [method, path] of [
      ['GET', `/api/v1/photo-id/documents/${d.id}`],
      ['PATCH', `/api/v1/photo-id/documents/${d.id}`],
      ['DELETE', `/api/v1/photo-id/documents/${d.id}`],
      ['GET', `/api/v1/photo-id/documents/${d.id}/pdf`],
    ] as const) {
      const r = await api(method, path, method === 'PATCH' ? { verification: v } : undefined);
      expect([method, r.status]).toEqual([method, 400]);
    }
  });

  it('changes only the given fields, replaces images and answers without document_type and country', async () => {
    const v = await verification();
    const d = (await api('POST', '/api/v1/default/documents', doc(v, {}))).body.data;
    const replacement = png(4, 4, 42);
    const res = await api('PATCH', `/api/v1/default/documents/${d.id}`, {
      verification: v,
      document: { type: 2, country: 'usa', front_side_data: b64(replacement), back_side_data: b64(png(4, 4, 43)) },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).not.toHaveProperty('document_type');
    expect(res.body.data).not.toHaveProperty('country');
    expect(res.body.data.url_back).not.toBeNull();
    const fetched = Buffer.from(await (await fetch(res.body.data.url_front)).arrayBuffer());
    expect(fetched.equals(replacement)).toBe(true);
    expect(storedObjects(v)).toHaveLength(2);
    const got = (await api('GET', `/api/v1/default/documents/${d.id}`)).body.data;
    expect(got.document_type.name).toBe('Driver License');
    expect(got.country.iso3).toBe('USA');

    const toPassport = await api('PATCH', `/api/v1/default/documents/${d.id}`, { verification: v, document: { type: 1 } });
    expect(toPassport.status).toBe(200);
    expect(toPassport.body.data.url_back).toBeNull();
    expect(storedObjects(v)).toHaveLength(1);
  });

  it('accepts status only while Uploaded, and nothing once the verification left Started', async () => {
    const v = await verification('photo-id');
    const d = (await api('POST', '/api/v1/photo-id/documents', doc(v, {}))).body.data;
    const bad = await api('PATCH', `/api/v1/photo-id/documents/${d.id}`, { verification: v, status: 8 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.status).toEqual(['must be an integer from 1 to 7']);
    const other = await api('PATCH', `/api/v1/photo-id/documents/${d.id}`, { verification: 'ver_other' });
    expect(other.status).toBe(400);
    const set = await api('PATCH', `/api/v1/photo-id/documents/${d.id}`, { verification: v, status: 2 });
    expect(set.status).toBe(200);
    expect(set.body.data.status_label).toBe('In progress');
    const again = await api('PATCH', `/api/v1/photo-id/documents/${d.id}`, { verification: v, status: 1 });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/Document is not in Uploaded status/);

    const v2 = await verification('photo-id');
    const d2 = (await api('POST', '/api/v1/photo-id/documents', doc(v2, {}))).body.data;
    await api('PUT', `/api/v1/photo-id/verifications/${v2}/submit`);
    const afterSubmit = await api('PATCH', `/api/v1/photo-id/documents/${d2.id}`, { verification: v2, document: { country: 'DEU' } });
    expect(afterSubmit.status).toBe(400);
    expect(afterSubmit.body.message).toBe('Verification is not in Started status');
  });

  it('deletes: 204, then 404; documents of a deleted verification are gone', async () => {
    const v = await verification();
    const d = (await api('POST', '/api/v1/default/documents', doc(v, {}))).body.data;
    expect((await api('DELETE', `/api/v1/default/documents/${d.id}`)).status).toBe(204);
    expect((await api('GET', `/api/v1/default/documents/${d.id}`)).status).toBe(404);
    expect((await api('DELETE', `/api/v1/default/documents/${d.id}`)).status).toBe(404);
    const d2 = (await api('POST', '/api/v1/default/documents', doc(v, {}))).body.data;
    await api('DELETE', `/api/v1/default/verifications/${v}`);
    expect((await api('GET', `/api/v1/default/documents/${d2.id}`)).status).toBe(404);
  });
});

describe('download document PDF', () => {
  it('fits two full-size phone photos (4 MiB each) in a report far below Lambda\'s 6 MB response limit', async () => {
    const sharp = (await import('sharp')).default;
    // A photo JPEG just under the 4 MiB upload limit: 12 MP of noise, the worst case for compression.
    async function photo(seed: number): Promise<Buffer> {
      const raw = Buffer.alloc(4000 * 3000 * 3);
      let x = seed;
      for (let i = 0; i < raw.length; i++) raw[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
      for (let quality = 90; ; quality -= 5) {
        const jpeg = await sharp(raw, { raw: { width: 4000, height: 3000, channels: 3 } }).jpeg({ quality }).toBuffer();
        if (jpeg.length <= MAX_IMAGE_BYTES) return jpeg;
      }
    }
    const [front, back] = [await photo(1), await photo(2)];
    expect(Math.min(front.length, back.length)).toBeGreaterThan(2.5 * 1024 * 1024);
    const v = await verification();
    const d = (await api('POST', '/api/v1/default/documents', doc(v, { type: 2, country: 'USA', back_side_data: b64(png()) }))).body.data;
    // One image per request: a request carries at most 6 MB, as Lambda's does.
    expect((await api('PATCH', `/api/v1/default/documents/${d.id}`, { verification: v, document: { front_side_data: front.toString('base64') } })).status).toBe(200);
    expect((await api('PATCH', `/api/v1/default/documents/${d.id}`, { verification: v, document: { back_side_data: back.toString('base64') } })).status).toBe(200);
    await api('POST', '/api/v1/default/documents', doc(v, { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(pdf()) }));
    expect((await api('PUT', `/api/v1/default/verifications/${v}/approve`, action)).status).toBe(200);
    const res = await api('GET', `/api/v1/default/documents/${d.id}/pdf`);
    expect(res.status).toBe(200);
    const body = JSON.stringify(res.body);
    expect(body.length).toBeLessThan(3 * 1024 * 1024);
    const { PDFDocument } = await import('pdf-lib');
    expect((await PDFDocument.load(Buffer.from(res.body.data, 'base64'))).getPageCount()).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it('returns 400 until the verification is approved, then a base64 PDF whose hash is recorded', async () => {
    const v = await verification();
    const d = (await api('POST', '/api/v1/default/documents', doc(v, {}))).body.data;
    await api('POST', '/api/v1/default/documents', doc(v, { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(pdf()) }));
    const early = await api('GET', `/api/v1/default/documents/${d.id}/pdf`);
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('Verification is not in Approved status');
    expect((await api('PUT', `/api/v1/default/verifications/${v}/approve`, action)).status).toBe(200);
    const res = await api('GET', `/api/v1/default/documents/${d.id}/pdf`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    const bytes = Buffer.from(res.body.data, 'base64');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { PDFDocument } = await import('pdf-lib');
    const parsed = await PDFDocument.load(bytes);
    expect(parsed.getPageCount()).toBeGreaterThanOrEqual(2);
    const { createHash } = await import('node:crypto');
    const item = await t.h.runtime.doc.send(new GetCommand({ TableName: 'idv-local', Key: { PK: `VER#${v}`, SK: 'DOC#PHOTO_ID' } }));
    expect(item.Item?.report_sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect((await api('GET', '/api/v1/default/documents/doc_01ARZ3NDEKTSV4RRFFQ69G5FAV/pdf')).status).toBe(404);
  });
});

describe('request size', () => {
  it('answers 400 with a JSON message for a body over 6 MB', async () => {
    const res = await api('POST', '/api/v1/default/documents', undefined, { raw: JSON.stringify({ x: 'a'.repeat(6 * 1024 * 1024 + 10) }) });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/exceeds the 6 MB limit/);
  });
});

describe('purge of soft-deleted verifications', () => {
  it('removes images first, then every item, once the retention has passed', async () => {
    const { QueryCommand, UpdateCommand, GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const v = await verification();
    const d = (await api('POST', '/api/v1/default/documents', doc(v, { type: 2, country: 'USA', back_side_data: b64(png()) }))).body.data;
    const keep = await verification();
    await api('POST', '/api/v1/default/documents', doc(keep, {}));
    expect(storedObjects(v)).toHaveLength(2);
    await api('DELETE', `/api/v1/default/verifications/${v}`);
    await api('DELETE', `/api/v1/default/verifications/${keep}`);
    expect((await t.h.runtime.purgeNow()).purged).toBe(0); // retention (30 days) not over yet
    expect(storedObjects(v)).toHaveLength(2);
    const past = '2000-01-01T00:00:00.000000Z';
    await t.h.runtime.doc.send(
      new UpdateCommand({ TableName: 'idv-local', Key: { PK: `VER#${v}`, SK: 'VER' }, UpdateExpression: 'SET GSI3SK = :sk', ExpressionAttributeValues: { ':sk': `${past}#${v}` } }),
    );
    expect((await t.h.runtime.purgeNow()).purged).toBe(1);
    expect(storedObjects(v)).toEqual([]);
    const left = await t.h.runtime.doc.send(new QueryCommand({ TableName: 'idv-local', KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `VER#${v}` } }));
    expect(left.Items).toEqual([]);
    expect((await t.h.runtime.doc.send(new GetCommand({ TableName: 'idv-local', Key: { PK: `DOCREF#${d.id}`, SK: 'DOCREF' } }))).Item).toBeUndefined();
    // The other deleted verification is still within its retention.
    expect(storedObjects(keep)).toHaveLength(1);
  });
});
