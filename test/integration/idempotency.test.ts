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
