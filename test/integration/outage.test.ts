import { DynamoTokenRepository } from '../../src/adapters/dynamodb/token-repository';
import { LOCAL_TABLE } from '../../local/runtime';
import { hashToken, newApiToken } from '../../src/app/tokens';
import { client, defaultBody, startTestRuntime } from './harness';

const BUSY = { message: 'The service is busy; retry in a moment' };

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function refused(endpoint: string): Promise<boolean> {
  try {
    await (await fetch(endpoint)).arrayBuffer();
    return false;
  } catch {
    return true;
  }
}

describe('DynamoDB Local stops under a running service', () => {
  jest.setTimeout(180_000);
  let h: Awaited<ReturnType<typeof startTestRuntime>>;

  beforeAll(async () => {
    // Data on disk, as npm start keeps it; the supervisor waits 8 s before restarting, long enough to look at the outage.
    h = await startTestRuntime({ inMemory: false, serviceRestartDelayMs: 8000 });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('answers 503 with the documented body, /health names DynamoDB, valid tokens get 503 not 401, and all recovers when it is back', async () => {
    const { runtime } = h;
    const api = client(runtime);
    // A second valid token the front has not cached yet, so the authorizer must read the table for it.
    const other = newApiToken();
    await new DynamoTokenRepository(runtime.doc, LOCAL_TABLE).put({ name: 'reviewer', hash: hashToken(other), createdAt: '2026-01-01T00:00:00.000000Z' });
    const created = await api('POST', '/api/v1/default/verifications', defaultBody());
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;

    const endpoint = runtime.endpoints.dynamodb;
    const firstPid = runtime.dynamoPid;
    expect(firstPid).toBeDefined();
    process.kill(firstPid ?? 0, 'SIGKILL');
    await until('DynamoDB Local to stop', () => refused(endpoint), 10_000);

    const get = await api('GET', `/api/v1/default/verifications/${id}`);
    expect(get.status).toBe(503);
    expect(get.body).toEqual(BUSY);

    const health = await api('GET', '/health');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ ...BUSY, dependencies: { dynamodb: 'unavailable' } });

    const signedOut = await api('GET', '/api/v1/default/verifications', undefined, { token: other });
    expect(signedOut.status).toBe(503);
    expect(signedOut.body).toEqual(BUSY);
    expect(signedOut.headers.get('retry-after')).toBe('1');
    // Failing closed: a token that cannot be looked up gets in nowhere (503 too); a malformed header is still 401.
    expect((await api('GET', '/api/v1/default/verifications', undefined, { token: 'idv_unknown' })).status).toBe(503);
    const malformed = await fetch(`${runtime.url}/api/v1/default/verifications`, { headers: { Authorization: 'Basic abc' } });
    expect(malformed.status).toBe(401);

    // The supervisor starts DynamoDB Local again on the same port; the clients recover by themselves.
    await until('/health to answer 200 again', async () => (await api('GET', '/health')).status === 200, 90_000);
    expect(runtime.dynamoPid).not.toBe(firstPid);
    expect((await api('GET', '/health')).body).toEqual({ status: 'ok', dependencies: { dynamodb: 'ok' } });
    // What was acknowledged before the kill is still there (the launcher answers a transaction only once SQLite
    // committed it: test/integration/durability.test.ts), and what is written after it is back is served.
    expect((await api('GET', `/api/v1/default/verifications/${id}`)).status).toBe(200);
    const again = await api('POST', '/api/v1/default/verifications', defaultBody());
    expect(again.status).toBe(201);
    expect((await api('GET', `/api/v1/default/verifications/${again.body.data.id}`)).status).toBe(200);
  });
});
