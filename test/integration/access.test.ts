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
    // Who it is and which flows it has: answered for its own flows (the console signs in with these).
    expect(await scoped('GET', '/api/v1/me')).toMatchObject({ status: 200, body: { data: { name: 'scoped', reviewer: false, flows: ['photo-id'] } } });
    const flows = await scoped('GET', '/api/v1/flows');
    expect(flows.status).toBe(200);
    expect(flows.body.data.map((f: { path: string }) => f.path)).toEqual(['photo-id']);
    expect((await t.api('GET', '/api/v1/flows')).body.data.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['default', 'photo-id']));
  });
});

describe('flow-limited tokens and resources of other flows', () => {
  const tokenFor = async (name: string, token: string, flows?: string[]) => {
    const { DynamoTokenRepository } = await import('../../src/adapters/dynamodb/token-repository');
    const { hashToken } = await import('../../src/app/tokens');
    await new DynamoTokenRepository(t.h.runtime.doc, 'idv-local').put({ name, hash: hashToken(token), createdAt: 'now', ...(flows && { flows }) });
  };
  const as = async (token: string, method: string, path: string, body?: unknown, key?: string) => {
    const res = await fetch(`${t.h.runtime.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...(key && { 'Idempotency-Key': key }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any, replayed: res.headers.get('idempotent-replayed') };
  };

  it('answers 404 to a flow-limited token for ids of flows it may not see, exactly as for unknown ids', async () => {
    await tokenFor('limited', 'idv_limited-token', ['photo-id']);
    const other = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data.id;
    const doc = await t.api('POST', '/api/v1/default/documents', {
      verification: other,
      document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: (await import('../fixtures/images')).b64((await import('../fixtures/images')).pdf({})) },
    });
    expect(doc.status).toBe(201);
    const docId = doc.body.data.id;
    const unknown = await as('idv_limited-token', 'GET', '/api/v1/photo-id/verifications/ver_00000000000000000000000000');
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Verification not found' } });
    expect(await as('idv_limited-token', 'GET', `/api/v1/photo-id/verifications/${other}`)).toMatchObject({ status: 404, body: unknown.body });
    expect(await as('idv_limited-token', 'PUT', `/api/v1/photo-id/verifications/${other}/cancel`, { comment: 'x', email: 'r@example.com' })).toMatchObject({ status: 404, body: unknown.body });
    expect(await as('idv_limited-token', 'GET', `/api/v1/photo-id/documents/${docId}`)).toMatchObject({ status: 404, body: { message: 'Document not found' } });
    expect(await as('idv_limited-token', 'GET', `/api/v1/photo-id/documents/${docId}/pdf`)).toMatchObject({ status: 404, body: { message: 'Document not found' } });
    const upload = await as('idv_limited-token', 'POST', '/api/v1/photo-id/documents', {
      verification: other,
      document: { context_type: 'PHOTO_ID', type: 1, country: 'USA', front_side_data: 'AAAA' },
    });
    expect(upload).toMatchObject({ status: 404, body: { message: 'Verification not found' } });
    // The spec's 400 stays for tokens that may use every flow.
    expect((await t.api('GET', `/api/v1/photo-id/verifications/${other}`)).status).toBe(400);
  });

  it('scopes Idempotency-Key to the token, not its name: a namesake never replays another token’s response', async () => {
    await tokenFor('twin', 'idv_twin-all');
    await tokenFor('twin', 'idv_twin-photo', ['photo-id']);
    const first = await as('idv_twin-all', 'POST', '/api/v1/default/verifications', defaultBody(), 'twin-key');
    expect(first.status).toBe(201);
    // Same name, same request, same key: before, this replayed the 201 with the other flow's expected data.
    const leaked = await as('idv_twin-photo', 'POST', '/api/v1/default/verifications', defaultBody(), 'twin-key');
    expect(leaked).toMatchObject({ status: 404, replayed: null });
    expect(JSON.stringify(leaked.body)).not.toContain('Lovelace');
    // And in a flow both may use, each token has its own keys.
    const body = { person: { first_name: 'A', last_name: 'B' } };
    const a = await as('idv_twin-all', 'POST', '/api/v1/photo-id/verifications', body, 'twin-key-2');
    const b = await as('idv_twin-photo', 'POST', '/api/v1/photo-id/verifications', body, 'twin-key-2');
    expect([a.status, b.status, b.replayed]).toEqual([201, 201, null]);
    expect(b.body.data.id).not.toBe(a.body.data.id);
  });

  it('checks the flow scope before the Idempotency-Key: a refused request claims no key', async () => {
    await tokenFor('order', 'idv_order-photo', ['photo-id']);
    const refused = await as('idv_order-photo', 'POST', '/api/v1/default/verifications', defaultBody(), 'order-key');
    expect(refused.status).toBe(404);
    // Had the key been claimed, the same key with another body would be a 422 mismatch.
    const again = await as('idv_order-photo', 'POST', '/api/v1/default/verifications', { ...defaultBody(), vendor_reference: 'other' }, 'order-key');
    expect(again).toMatchObject({ status: 404, body: { message: "Flow 'default' not found" } });
  });

  it('the token CLI refuses a name in use', async () => {
    const { execFile } = await import('node:child_process');
    const { join } = await import('node:path');
    const run = (name: string) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(
          join(__dirname, '../../node_modules/.bin/tsx'),
          [join(__dirname, '../../scripts/token.ts'), 'create', '--name', name, '--local'],
          { env: { ...process.env, DATA_DIR: t.h.dataDir } },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
        );
      });
    const first = await run('cli-once');
    expect(first.code).toBe(0);
    const token = first.out.trim().split('\n').pop() ?? '';
    const second = await run('cli-once');
    expect(second).toEqual({ code: 1, out: expect.stringContaining('A token named cli-once exists already') });
    // The first token still works; the refused run stored nothing.
    expect((await as(token, 'GET', '/api/v1/default/verifications')).status).toBe(200);
    // The development token (stored before names were held) is refused too.
    expect((await run('local-dev')).code).toBe(1);
  }, 30_000);
});

describe('links are built from trusted values only', () => {
  it('ignores a hostile Host and X-Forwarded-Proto: url, qr_code and list links use the service’s own base', async () => {
    const { request } = await import('node:http');
    const target = new URL(t.h.runtime.url);
    const send = (method: string, path: string, body?: unknown) =>
      new Promise<any>((resolve, reject) => {
        const req = request(
          {
            host: target.hostname,
            port: target.port,
            method,
            path,
            headers: {
              Host: 'evil.example',
              'X-Forwarded-Proto': 'javascript',
              'x-forwarded-proto': 'javascript',
              Authorization: `Bearer ${t.h.runtime.token}`,
              'Content-Type': 'application/json',
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve(JSON.parse(text)));
          },
        );
        req.on('error', reject);
        req.end(body === undefined ? undefined : JSON.stringify(body));
      });
    const created = await send('POST', '/api/v1/default/verifications', defaultBody());
    expect(created.data.url).toMatch(new RegExp(`^${t.h.runtime.url}/v/[\\w-]+$`));
    expect(created.data.qr_code).toMatch(new RegExp(`^${t.h.runtime.url}/v/[\\w-]+/qr$`));
    const list = await send('GET', '/api/v1/default/verifications');
    expect(list.links.first.startsWith(`${t.h.runtime.url}/`)).toBe(true);
    expect(JSON.stringify(list)).not.toContain('evil.example');
  });
});
