import { routes } from '../../src/http/routes';
import { indexes, keys } from '../../src/adapters/dynamodb/keys';
import { type ApiResponse, client, defaultBody, useTestRuntime, TIMESTAMP } from './harness';
import { b64, png } from '../fixtures/images';

const t = useTestRuntime();
const api: ReturnType<typeof client> = (...args) => t.api(...args);

async function create(flow = 'default', body: unknown = defaultBody()): Promise<any> {
  const res = await api('POST', `/api/v1/${flow}/verifications`, body);
  expect(res.status).toBe(201);
  return res.body.data;
}

async function upload(flow: string, verification: string, context: string, type: number, country = 'FRA', extra: object = {}): Promise<ApiResponse> {
  return api('POST', `/api/v1/${flow}/documents`, {
    verification,
    document: { context_type: context, type, country, front_side_data: b64(png(8, 8, type)), ...extra },
  });
}

async function ready(flow = 'default'): Promise<any> {
  const v = await create(flow);
  expect((await upload(flow, v.id, 'PHOTO_ID', 1)).status).toBe(201);
  if (flow === 'default') expect((await upload(flow, v.id, 'PROOF_OF_ADDRESS', 4, 'USA')).status).toBe(201);
  return v;
}

const action = { comment: 'Checked by hand', email: 'reviewer@example.com' };

describe('health and authentication', () => {
  it('answers /health without a token', async () => {
    const res = await api('GET', '/health', undefined, { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', dependencies: { dynamodb: 'ok' } });
  });

  it.each([
    ['missing', null],
    ['malformed', 'Basic abc'],
    ['unknown', 'idv_not-a-real-token'],
  ])('returns 401 with a JSON message on every endpoint when the token is %s', async (_label, token) => {
    for (const route of routes.filter((r) => r.auth)) {
      const path = route.path.replace('{flow}', 'default').replace('{verificationId}', 'ver_x').replace('{documentId}', 'doc_x');
      const res = await fetch(`${t.h.runtime.url}${path}`, {
        method: route.method,
        headers: token === null ? {} : { Authorization: token.startsWith('Basic') ? token : `Bearer ${token}` },
      });
      expect([route.operation, res.status]).toEqual([route.operation, 401]);
      expect(await res.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('serves its OpenAPI document without a token', async () => {
    const res = await api('GET', '/api/v1/openapi.json', undefined, { token: null });
    expect(res.status).toBe(200);
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    // The checked-in document, its server being this runtime's own address.
    expect(res.body).toEqual({ ...JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8')), servers: [{ url: t.h.runtime.url, description: 'This service' }] });
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('returns 404 JSON for unknown paths', async () => {
    const res = await api('GET', '/api/v2/nothing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not found' });
  });
});

describe('flow configuration', () => {
  it('lists the document types with explicit country lists', async () => {
    const res = await api('GET', '/api/v1/default/configuration');
    expect(res.status).toBe(200);
    const cfg = res.body.data;
    expect(cfg).toMatchObject({ path: 'default', name: 'Default', required_contexts: ['PHOTO_ID', 'PROOF_OF_ADDRESS'] });
    const byName = Object.fromEntries(cfg.document_types.map((t: any) => [t.name, t]));
    expect(Object.keys(byName)).toEqual(['Passport', 'Driver License', 'ID Card', 'Utility Bill', 'Bank Statement', 'Selfie']);
    expect(byName['ID Card']).toMatchObject({ id: 3, type_label: 'Photo ID', context_type: 'PHOTO_ID', forbidden_countries: ['USA'] });
    expect(byName['ID Card'].allowed_countries).not.toContain('USA');
    expect(byName['Driver License'].double_sided_countries).toContain('USA');
    expect(byName.Passport.double_sided_countries).toEqual([]);
  });

  it('returns 404 for an unknown flow', async () => {
    expect((await api('GET', '/api/v1/nope/configuration')).status).toBe(404);
  });
});

describe('create verification', () => {
  it('returns 201 with the spec shape, uppercased ISO3 and microsecond timestamps', async () => {
    const res = await api('POST', '/api/v1/default/verifications', defaultBody());
    expect(res.status).toBe(201);
    const v = res.body.data;
    expect(v.id).toMatch(/^ver_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(Object.keys(v)).toEqual([
      'id', 'url', 'qr_code', 'vendor_reference', 'vendor_state', 'expected_data', 'status_label',
      'submitted_at', 'created_at', 'updated_at', 'flow', 'comments',
    ]);
    expect(v).toMatchObject({ status_label: 'Started', submitted_at: null, flow: 'Default', comments: [], vendor_reference: 'ref-1', vendor_state: null });
    expect(v.created_at).toMatch(TIMESTAMP);
    expect(v.url).toMatch(new RegExp(`^${t.h.runtime.url}/v/[A-Za-z0-9_-]{43}$`));
    expect(v.qr_code).toBe(`${v.url}/qr`);
    expect(v.expected_data).toEqual({
      person: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-12-10' },
      address: { street: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'USA' },
      documents: {
        photo_id: { type: 'Passport', number: 'P123', country: 'GBR' },
        proof_of_address: { type: 'Utility Bill', number: '', country: 'USA' },
      },
    });
  });

  it('returns 404 when the flow does not exist', async () => {
    const res = await api('POST', '/api/v1/nope/verifications', defaultBody());
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/Flow 'nope' not found/);
  });

  it('returns 422 with dotted field paths for each rule', async () => {
    const body: any = defaultBody();
    delete body.person;
    body.address.state = '';
    body.address.country = 'XXX';
    body.documents.proof_of_address.type = 'Passport';
    // Field types and formats are checked first; flow rules run on well-formed input.
    const shape = await api('POST', '/api/v1/default/verifications', body);
    expect(shape.status).toBe(422);
    expect(shape.body.errors).toEqual({ 'address.country': ['must be an ISO 3166 alpha-3 country code'] });
    body.address.country = 'FRA';
    const res = await api('POST', '/api/v1/default/verifications', body);
    expect(res.status).toBe(422);
    expect(res.body.message).toBeDefined();
    expect(res.body.errors).toEqual(
      expect.objectContaining({
        person: [expect.stringMatching(/required/)],
        'documents.proof_of_address.type': [expect.stringMatching(/must be one of/)],
      }),
    );
  });

  it('requires address.state for USA, distinct types, allowed type per country and a real date', async () => {
    const body: any = defaultBody();
    body.address.state = '';
    body.person.date_of_birth = '1990-02-30';
    body.documents.photo_id = { type: 'ID Card', number: '1', country: 'USA' };
    // The date's format is the request schema's (and the contract's): checked before the flow rules.
    const date = await api('POST', '/api/v1/default/verifications', body);
    expect(date.status).toBe(422);
    expect(date.body.errors).toEqual({ 'person.date_of_birth': ['must be a date in the format YYYY-MM-DD'] });
    body.person.date_of_birth = '1990-02-28';
    const res = await api('POST', '/api/v1/default/verifications', body);
    expect(res.status).toBe(422);
    expect(res.body.errors['address.state']).toEqual(['is required when address.country is USA']);
    expect(res.body.errors['documents.photo_id.type']).toEqual(['ID Card is not accepted for country USA']);
  });

  it('returns 422 for wrong types and 400 for malformed JSON', async () => {
    const wrong = await api('POST', '/api/v1/default/verifications', { person: 'Ada', vendor_reference: 5 });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.person).toEqual(['must be an object']);
    expect(wrong.body.errors.vendor_reference).toEqual(['must be a string']);
    const arr = await api('POST', '/api/v1/default/verifications', [1, 2]);
    expect(arr.status).toBe(422);
    expect(arr.body.errors.body).toBeDefined();
    const bad = await api('POST', '/api/v1/default/verifications', undefined, { raw: '{"person": ' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'Malformed JSON in request body' });
  });

  it('needs no address in a flow without proof of address', async () => {
    const v = await create('photo-id', { person: { first_name: 'A', last_name: 'B' } });
    expect(v.flow).toBe('Photo ID');
    expect(v.expected_data.person.date_of_birth).toBe('');
    expect(v.expected_data.address.country).toBe('');
  });
});

describe('list verifications', () => {
  it('pages 15 per page, newest first, with links and meta, per flow and for all flows', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 17; i++) ids.push((await create('photo-id', { person: { first_name: `P${i}`, last_name: 'L' } })).id);
    const all0 = (await api('GET', '/api/v1/verifications')).body.meta.total;

    const p1 = await api('GET', '/api/v1/photo-id/verifications');
    expect(p1.status).toBe(200);
    const total = p1.body.meta.total;
    expect(total).toBeGreaterThanOrEqual(17);
    expect(p1.body.data).toHaveLength(15);
    expect(p1.body.data[0].id).toBe(ids[16]);
    expect(p1.body.data[0]).not.toHaveProperty('documents');
    expect(p1.body.data[0]).not.toHaveProperty('history');
    const path = `${t.h.runtime.url}/api/v1/photo-id/verifications`;
    const last = Math.ceil(total / 15);
    expect(p1.body.links).toEqual({ first: `${path}?page=1`, last: `${path}?page=${last}`, prev: null, next: `${path}?page=2` });
    expect(p1.body.meta).toEqual({ current_page: 1, from: 1, last_page: last, path, per_page: 15, to: 15, total });

    const p2 = await api('GET', '/api/v1/photo-id/verifications?page=2');
    expect(p2.body.data[0].id).toBe(ids[1]);
    expect(p2.body.meta.from).toBe(16);
    expect(p2.body.links.prev).toBe(`${path}?page=1`);

    const beyond = await api('GET', '/api/v1/photo-id/verifications?page=99');
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta).toMatchObject({ from: null, to: null, total });

    const all = await api('GET', '/api/v1/verifications');
    expect(all.body.meta.path).toBe(`${t.h.runtime.url}/api/v1/verifications`);
    expect(all.body.meta.total).toBe(all0);
    const flows = new Set((await api('GET', '/api/v1/verifications?page=1')).body.data.map((v: any) => v.flow));
    expect([...flows].every((f) => f === 'Default' || f === 'Photo ID')).toBe(true);
    expect((await api('GET', '/api/v1//verifications')).body.meta.total).toBe(all0);
  });

  it('walks from either end of the index and still returns every verification once, newest first', async () => {
    for (let i = 0; i < 20; i++) await create('photo-id', { person: { first_name: `W${i}`, last_name: 'L' } });
    const first = (await api('GET', '/api/v1/photo-id/verifications')).body;
    const seen: string[] = [];
    for (let page = 1; page <= first.meta.last_page; page++) {
      seen.push(...(await api('GET', `/api/v1/photo-id/verifications?page=${page}`)).body.data.map((v: any) => v.id));
    }
    expect(seen).toHaveLength(first.meta.total);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  it('returns 400 for a page that is not a positive integer and 404 for an unknown flow', async () => {
    for (const page of ['0', '-1', 'abc', '1.5']) {
      const res = await api('GET', `/api/v1/default/verifications?page=${page}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('page must be a positive integer');
    }
    expect((await api('GET', '/api/v1/nope/verifications')).status).toBe(404);
  });
});

describe('get, update and delete verification', () => {
  it('gets the verification with documents and history, newest history first', async () => {
    const v = await ready();
    await api('PUT', `/api/v1/default/verifications/${v.id}/submit`);
    const res = await api('GET', `/api/v1/default/verifications/${v.id}`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.documents).toHaveLength(2);
    expect(data.history.map((x: any) => [x.from_status, x.to_status, x.user])).toEqual([
      ['Started', 'Submitted', 'system'],
      [null, 'Started', 'system'],
    ]);
    expect(data.history[0].id).toMatch(/^hist_/);
    expect(data.submitted_at).toMatch(TIMESTAMP);
  });

  it('returns 404 for an unknown id and 400 for another flow', async () => {
    const v = await create();
    expect((await api('GET', '/api/v1/default/verifications/ver_01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    expect((await api('GET', '/api/v1/default/verifications/a%20b')).status).toBe(404);
    const other = await api('GET', `/api/v1/photo-id/verifications/${v.id}`);
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/does not belong to flow/);
    for (const op of ['submit', 'approve', 'reject', 'cancel', 'resubmit']) {
      expect((await api('PUT', `/api/v1/photo-id/verifications/${v.id}/${op}`, action)).status).toBe(400);
    }
    expect((await api('PATCH', `/api/v1/photo-id/verifications/${v.id}`, {})).status).toBe(400);
    expect((await api('DELETE', `/api/v1/photo-id/verifications/${v.id}`)).status).toBe(400);
  });

  it('merges only the provided fields', async () => {
    const v = await create();
    const res = await api('PATCH', `/api/v1/default/verifications/${v.id}`, { vendor_state: 'x', person: { first_name: 'Grace' }, address: { country: 'fra' } });
    expect(res.status).toBe(200);
    expect(res.body.data.vendor_state).toBe('x');
    expect(res.body.data.vendor_reference).toBe('ref-1');
    expect(res.body.data.expected_data.person).toEqual({ first_name: 'Grace', last_name: 'Lovelace', date_of_birth: '1990-12-10' });
    expect(res.body.data.expected_data.address.country).toBe('FRA');
  });

  it('requires comment and e-mail with status, and re-runs processing on Double Check', async () => {
    const v = await ready();
    const missing = await api('PATCH', `/api/v1/default/verifications/${v.id}`, { status: 5 });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['comment', 'email']);
    const badStatus = await api('PATCH', `/api/v1/default/verifications/${v.id}`, { status: 9, ...action });
    expect(badStatus.status).toBe(422);
    const badType = await api('PATCH', `/api/v1/default/verifications/${v.id}`, { documents: { photo_id: { type: 'Passport' } } });
    expect(badType.status).toBe(422);
    expect(badType.body.errors['documents.photo_id.number']).toEqual(['is required']);
    const ok = await api('PATCH', `/api/v1/default/verifications/${v.id}`, { status: 'DOUBLE_CHECK', ...action });
    expect(ok.status).toBe(200);
    expect(ok.body.data.status_label).toBe('Double Check');
    expect(ok.body.data.comments).toEqual([{ content: action.comment, status: 'Double Check', created_at: expect.stringMatching(TIMESTAMP) }]);
    const got = (await api('GET', `/api/v1/default/verifications/${v.id}`)).body.data;
    expect(got.history[0]).toMatchObject({ from_status: 'Started', to_status: 'Double Check', user: action.email, comment: action.comment });
  });

  it('refuses to update a canceled verification', async () => {
    const v = await create();
    expect((await api('PUT', `/api/v1/default/verifications/${v.id}/cancel`, action)).status).toBe(200);
    const res = await api('PATCH', `/api/v1/default/verifications/${v.id}`, { vendor_state: 'y' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Verification is canceled');
  });

  it('soft-deletes: 204 without body, then 404 and gone from the list counts', async () => {
    const v = await create();
    const before = (await api('GET', '/api/v1/default/verifications')).body.meta.total;
    const res = await api('DELETE', `/api/v1/default/verifications/${v.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api('GET', `/api/v1/default/verifications/${v.id}`)).status).toBe(404);
    expect((await api('DELETE', `/api/v1/default/verifications/${v.id}`)).status).toBe(404);
    const after = await api('GET', '/api/v1/default/verifications');
    expect(after.body.meta.total).toBe(before - 1);
    expect(after.body.data.map((x: any) => x.id)).not.toContain(v.id);
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const item = await t.h.runtime.doc.send(new GetCommand({ TableName: 'idv-local', Key: { PK: `VER#${v.id}`, SK: 'VER' } }));
    expect(item.Item?.deleted_at).toMatch(TIMESTAMP);
    // In the purge index until the job has removed everything of it; no table TTL, which, were the job
    // stalled, would delete this item and with it the only way to its images and other items.
    expect(item.Item?.[indexes.due.pk]).toBe(keys.purgePartition);
    expect(item.Item?.ttl).toBeUndefined();
  });
});

describe('submit and manual actions', () => {
  it('submits only from Started with every required document', async () => {
    const v = await create();
    const none = await api('PUT', `/api/v1/default/verifications/${v.id}/submit`);
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/missing PHOTO_ID, PROOF_OF_ADDRESS/);
    await upload('default', v.id, 'PHOTO_ID', 1);
    await upload('default', v.id, 'PROOF_OF_ADDRESS', 5, 'USA');
    const ok = await api('PUT', `/api/v1/default/verifications/${v.id}/submit`);
    expect(ok.status).toBe(200);
    expect(ok.body.data.status_label).toBe('Submitted');
    expect(ok.body.data.documents).toHaveLength(2);
    const again = await api('PUT', `/api/v1/default/verifications/${v.id}/submit`);
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/not in Started status/);
    await t.h.runtime.workflow.idle();
    expect(t.h.runtime.workflow.failures).toEqual([]);
  });

  it.each(['resubmit', 'approve', 'reject', 'cancel'])('%s returns 422 without comment or a valid e-mail', async (op) => {
    const v = await create();
    const res = await api('PUT', `/api/v1/default/verifications/${v.id}/${op}`, {});
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ comment: ['is required'], email: ['is required'] });
    const bad = await api('PUT', `/api/v1/default/verifications/${v.id}/${op}`, { comment: 'x', email: 'not-an-email' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ email: ['must be a valid e-mail address'] });
  });

  it('approves with a manual decision on every document, once', async () => {
    const v = await ready();
    const res = await api('PUT', `/api/v1/default/verifications/${v.id}/approve`, action);
    expect(res.status).toBe(200);
    expect(res.body.data.status_label).toBe('Approved');
    for (const d of res.body.data.documents) {
      expect(d.status_label).toBe('Approved');
      expect(d.decisions).toEqual([
        { id: expect.stringMatching(/^dec_/), status_label: 'Approved', validation_workflow: 'manual', created_at: expect.any(String), updated_at: expect.any(String) },
      ]);
    }
    expect(res.body.data.comments[0]).toMatchObject({ content: action.comment, status: 'Approved' });
    const again = await api('PUT', `/api/v1/default/verifications/${v.id}/approve`, action);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Verification is already approved');
  });

  it('rejects once, and resubmit resets documents and restarts processing', async () => {
    const v = await ready();
    expect((await api('PUT', `/api/v1/default/verifications/${v.id}/reject`, action)).body.data.status_label).toBe('Rejected');
    const again = await api('PUT', `/api/v1/default/verifications/${v.id}/reject`, action);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Verification is already rejected');
    const res = await api('PUT', `/api/v1/default/verifications/${v.id}/resubmit`, action);
    expect(res.status).toBe(200);
    expect(res.body.data.status_label).toBe('Submitted');
    for (const d of res.body.data.documents) {
      expect(d.status_label).toBe('Uploaded');
      expect(d.extracted_data).toEqual([]);
      expect(d.rules).toBeNull();
    }
  });

  it('resubmit needs every required document', async () => {
    const v = await create();
    const res = await api('PUT', `/api/v1/default/verifications/${v.id}/resubmit`, action);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Not all required documents/);
  });

  it('cancel is terminal', async () => {
    const v = await ready();
    const res = await api('PUT', `/api/v1/default/verifications/${v.id}/cancel`, action);
    expect(res.status).toBe(200);
    expect(res.body.data.documents.map((d: any) => d.status_label)).toEqual(['Canceled', 'Canceled']);
    expect((await api('PUT', `/api/v1/default/verifications/${v.id}/cancel`, action)).body.message).toBe('Verification is already canceled');
    for (const op of ['approve', 'reject', 'resubmit']) {
      const r = await api('PUT', `/api/v1/default/verifications/${v.id}/${op}`, action);
      expect([op, r.status, r.body.message]).toEqual([op, 400, 'Verification is canceled']);
    }
    expect((await api('PUT', `/api/v1/default/verifications/${v.id}/submit`)).status).toBe(400);
  });

  it('never resurrects a verification deleted while it is submitted and processed', async () => {
    const { GetCommand, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
    for (let i = 0; i < 3; i++) {
      const v = await ready();
      const [del, sub] = await Promise.all([api('DELETE', `/api/v1/default/verifications/${v.id}`), api('PUT', `/api/v1/default/verifications/${v.id}/submit`)]);
      expect(del.status).toBe(204);
      expect([200, 404]).toContain(sub.status);
      await t.h.runtime.idle();
      expect((await api('GET', `/api/v1/default/verifications/${v.id}`)).status).toBe(404);
      const item = await t.h.runtime.doc.send(new GetCommand({ TableName: 'idv-local', Key: { PK: `VER#${v.id}`, SK: 'VER' } }));
      expect(item.Item?.deleted_at).toBeDefined();
      expect(item.Item?.GSI1PK).toBeUndefined();
      // No document was rewritten by the pipeline after the delete.
      const docs = await t.h.runtime.doc.send(new QueryCommand({ TableName: 'idv-local', KeyConditionExpression: 'PK = :pk AND begins_with(SK, :d)', ExpressionAttributeValues: { ':pk': `VER#${v.id}`, ':d': 'DOC#' } }));
      for (const d of docs.Items ?? []) expect(d.updated_at <= item.Item!.deleted_at).toBe(true);
    }
  });

  it('keeps status and history consistent under concurrent approve, reject, resubmit and cancel', async () => {
    const v = await ready();
    const results = await Promise.all([
      api('PUT', `/api/v1/default/verifications/${v.id}/approve`, action),
      api('PUT', `/api/v1/default/verifications/${v.id}/cancel`, action),
      api('PUT', `/api/v1/default/verifications/${v.id}/reject`, action),
      api('PUT', `/api/v1/default/verifications/${v.id}/resubmit`, action),
      api('PUT', `/api/v1/default/verifications/${v.id}/cancel`, action),
    ]);
    await t.h.runtime.idle();
    for (const r of results) expect([200, 400]).toContain(r.status);
    const got = (await api('GET', `/api/v1/default/verifications/${v.id}`)).body.data;
    expect(got.status_label).toBe(got.history[0].to_status);
    // History is a chain: each entry starts where the previous one ended.
    const chain = [...got.history].reverse();
    for (let i = 1; i < chain.length; i++) expect(chain[i].from_status).toBe(chain[i - 1].to_status);
    // Every successful action left exactly one history entry (plus creation and any automatic outcome).
    const manual = got.history.filter((h: any) => h.user === action.email);
    expect(manual).toHaveLength(results.filter((r) => r.status === 200).length);
  });
});

describe('expiry', () => {
  it('moves a verification left in Started past its flow limit to Expired, and only that one', async () => {
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const stale = await create('photo-id', { person: { first_name: 'A', last_name: 'B' } });
    const fresh = await create('photo-id', { person: { first_name: 'C', last_name: 'D' } });
    expect((await api('GET', '/api/v1/photo-id/configuration')).body.data.expire_after_days).toBe(7);
    // Age the first one: its expiry time (created_at + 7 days) moves into the past.
    const past = '2000-01-01T00:00:00.000000Z';
    await t.h.runtime.doc.send(
      new UpdateCommand({
        TableName: 'idv-local',
        Key: { PK: `VER#${stale.id}`, SK: 'VER' },
        UpdateExpression: 'SET expires_at = :p, GSI3SK = :sk',
        ExpressionAttributeValues: { ':p': past, ':sk': `${past}#${stale.id}` },
      }),
    );
    expect((await t.h.runtime.expireNow()).expired).toBe(1);
    const got = (await api('GET', `/api/v1/photo-id/verifications/${stale.id}`)).body.data;
    expect(got.status_label).toBe('Expired');
    expect(got.history[0]).toMatchObject({ from_status: 'Started', to_status: 'Expired', user: 'system' });
    expect((await api('GET', `/api/v1/photo-id/verifications/${fresh.id}`)).body.data.status_label).toBe('Started');
    expect((await t.h.runtime.expireNow()).expired).toBe(0);
    // Expired is left by Update with status (any status but Canceled may be set by hand).
    const back = await api('PATCH', `/api/v1/photo-id/verifications/${stale.id}`, { status: 1, ...action });
    expect(back.body.data.status_label).toBe('Started');
    expect((await t.h.runtime.expireNow()).expired).toBe(0);
  });
});
