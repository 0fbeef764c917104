import { defaultBody, useTestRuntime } from './harness';

const t = useTestRuntime();

async function post(path: string, body: unknown, key?: string, token?: string) {
  const res = await fetch(`${t.h.runtime.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token ?? t.h.runtime.token}`, 'Content-Type': 'application/json', ...(key && { 'Idempotency-Key': key }) },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), replayed: res.headers.get('idempotent-replayed') };
}

describe('Idempotency-Key', () => {
  it('replays the first response for the same request and creates one verification', async () => {
    const before = (await t.api('GET', '/api/v1/default/verifications')).body.meta.total;
    const first = await post('/api/v1/default/verifications', defaultBody(), 'key-create-1');
    const again = await post('/api/v1/default/verifications', defaultBody(), 'key-create-1');
    expect(first.status).toBe(201);
    expect(again).toEqual({ status: 201, text: first.text, replayed: 'true' });
    expect((await t.api('GET', '/api/v1/default/verifications')).body.meta.total).toBe(before + 1);
  });

  it('refuses the same key with a different body (422) and lets other keys through', async () => {
    await post('/api/v1/default/verifications', defaultBody(), 'key-create-2');
    const other = await post('/api/v1/default/verifications', { ...defaultBody(), vendor_reference: 'changed' }, 'key-create-2');
    expect(other.status).toBe(422);
    expect(JSON.parse(other.text).errors).toEqual({ 'Idempotency-Key': ['was already used for a different request'] });
    expect((await post('/api/v1/default/verifications', defaultBody(), 'key-create-3')).status).toBe(201);
  });

  it('makes a repeated action a no-op that answers as the first time, and remembers client errors too', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data.id;
    const action = { comment: 'ok', email: 'r@example.com' };
    const put = async (key: string) => {
      const res = await fetch(`${t.h.runtime.url}/api/v1/default/verifications/${v}/cancel`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${t.h.runtime.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify(action),
      });
      return { status: res.status, text: await res.text() };
    };
    const a = await put('cancel-key');
    const b = await put('cancel-key');
    expect(a.status).toBe(200);
    expect(b).toEqual(a);
    const history = (await t.api('GET', `/api/v1/default/verifications/${v}`)).body.data.history;
    expect(history.filter((h: any) => h.to_status === 'Canceled')).toHaveLength(1);
    // Without the key, the second cancel is the ordinary 400.
    expect((await t.api('PUT', `/api/v1/default/verifications/${v}/cancel`, action)).status).toBe(400);
  });

  it('rejects a malformed key', async () => {
    const res = await post('/api/v1/default/verifications', defaultBody(), 'x'.repeat(256));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).message).toMatch(/Idempotency-Key must be/);
  });

  it('scopes keys per operation', async () => {
    const a = await post('/api/v1/default/verifications', defaultBody(), 'shared-key');
    const v = JSON.parse(a.text).data.id;
    const doc = await post('/api/v1/default/webhooks', { url: 'http://127.0.0.1:9/x', events: ['VerificationFinished'] }, 'shared-key');
    expect(doc.status).toBe(201);
    expect(JSON.parse(doc.text).data.id).toMatch(/^whk_/);
    expect(v).toMatch(/^ver_/);
  });
});

describe('flow-scoped tokens', () => {
  it('see their own flows and nothing of the others (404), nor the all-flows list', async () => {
    const { DynamoTokenRepository } = await import('../../src/adapters/dynamodb/token-repository');
    const { hashToken } = await import('../../src/app/tokens');
    await new DynamoTokenRepository(t.h.runtime.doc, 'idv-local').put({ name: 'scoped', hash: hashToken('idv_scoped-token'), createdAt: 'now', flows: ['photo-id'] });
    const scoped = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${t.h.runtime.url}${path}`, { method, headers: { Authorization: 'Bearer idv_scoped-token', 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const mine = await scoped('POST', '/api/v1/photo-id/verifications', { person: { first_name: 'A', last_name: 'B' } });
    expect(mine.status).toBe(201);
    const other = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data.id;
    expect(await scoped('GET', `/api/v1/default/verifications/${other}`)).toEqual({ status: 404, body: { message: "Flow 'default' not found" } });
    expect((await scoped('GET', '/api/v1/default/verifications')).status).toBe(404);
    expect((await scoped('GET', '/api/v1/default/configuration')).status).toBe(404);
    expect((await scoped('GET', '/api/v1/verifications')).status).toBe(404);
    expect((await scoped('GET', `/api/v1/photo-id/verifications/${mine.body.data.id}`)).status).toBe(200);
  });
});
