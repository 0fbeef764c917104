import { DynamoTokenRepository } from '../../src/adapters/dynamodb/token-repository';
import { LOCAL_TABLE } from '../../local/runtime';
import { hashToken, newApiToken } from '../../src/app/tokens';
import { callBudgetMs } from '../../src/clients';
import { client, defaultBody, startTestRuntime } from './harness';

const BUSY = { message: 'The service is busy; retry in a moment' };
/**
 * What each request below may take with DynamoDB frozen: its first table call fails after one call
 * budget (src/clients.ts CALL_LIMITS; under 5 s), and 503 follows. The bound asserted is generous,
 * as a timing assertion on a shared 2-core machine must be; a request that hangs (as before the
 * limits) breaks it by far: it never ends while DynamoDB is frozen.
 */
const BOUND_MS = 20_000;
/** How long a request is waited for before the test calls it hung (above BOUND_MS, so a slow answer is still measured). */
const HUNG_MS = 40_000;

interface Timed {
  status: number;
  body: unknown;
  retryAfter: string | null;
  ms: number;
}

/** One request, timed; a request that does not end within HUNG_MS counts as hung (status 0). */
async function timed(url: string, init: RequestInit): Promise<Timed> {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(HUNG_MS) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, retryAfter: res.headers.get('retry-after'), ms: Math.round(performance.now() - started) };
  } catch {
    return { status: 0, body: 'hung', retryAfter: null, ms: Math.round(performance.now() - started) };
  }
}

describe('DynamoDB Local frozen (SIGSTOP) under a running service', () => {
  jest.setTimeout(300_000);
  let h: Awaited<ReturnType<typeof startTestRuntime>>;
  let frozen: number | undefined;

  beforeAll(async () => {
    h = await startTestRuntime({ inMemory: false });
  });
  afterAll(async () => {
    // Never leave DynamoDB Local stopped, whatever failed.
    if (frozen !== undefined) process.kill(frozen, 'SIGCONT');
    await h?.stop();
  });

  it('answers every route 503 with the documented body within the budget, and recovers after SIGCONT', async () => {
    const { runtime } = h;
    const api = client(runtime);
    // A valid token the front has not cached: the authorizer must read the table for it.
    const uncached = newApiToken();
    await new DynamoTokenRepository(runtime.doc, LOCAL_TABLE).put({ name: 'stall-reviewer', hash: hashToken(uncached), createdAt: '2026-01-01T00:00:00.000000Z' });
    const created = await api('POST', '/api/v1/default/verifications', defaultBody());
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const widget = new URL(created.body.data.url as string).pathname;
    // Warm every path once, so that what is measured below is the stall, not a first load.
    expect((await api('GET', `/api/v1/default/verifications/${id}`)).status).toBe(200);
    expect((await fetch(`${runtime.url}${widget}/session`)).status).toBe(200);

    const auth = (token: string) => ({ Authorization: `Bearer ${token}`, Accept: 'application/json' });
    const json = (token: string) => ({ ...auth(token), 'Content-Type': 'application/json' });
    const requests: Record<string, [string, RequestInit]> = {
      'Get Verification': [`/api/v1/default/verifications/${id}`, { headers: auth(runtime.token) }],
      'List Verifications': ['/api/v1/default/verifications', { headers: auth(runtime.token) }],
      'Create Verification': ['/api/v1/default/verifications', { method: 'POST', headers: json(runtime.token), body: JSON.stringify(defaultBody()) }],
      'Create Verification (Idempotency-Key)': [
        '/api/v1/default/verifications',
        { method: 'POST', headers: { ...json(runtime.token), 'Idempotency-Key': 'stall-1' }, body: JSON.stringify(defaultBody()) },
      ],
      'Cancel Verification': [`/api/v1/default/verifications/${id}/cancel`, { method: 'PUT', headers: json(runtime.token), body: JSON.stringify({ comment: 'Stalled', email: 'reviewer@example.com' }) }],
      'authorizer (uncached token)': ['/api/v1/default/verifications', { headers: auth(uncached) }],
      'widget session': [`${widget}/session`, { headers: { Accept: 'application/json' } }],
    };

    frozen = runtime.dynamoPid;
    expect(frozen).toBeDefined();
    process.kill(frozen ?? 0, 'SIGSTOP');
    const answers: Record<string, Timed> = {};
    try {
      for (const [name, [path, init]] of Object.entries(requests)) answers[name] = await timed(`${runtime.url}${path}`, init);
    } finally {
      process.kill(frozen ?? 0, 'SIGCONT');
      frozen = undefined;
    }
    // The figures the README's budget table quotes.
    process.stdout.write(`time to 503 with DynamoDB frozen (call budget ${callBudgetMs('dynamodb')} ms):\n${Object.entries(answers).map(([n, a]) => `  ${n}: ${a.status} in ${a.ms} ms`).join('\n')}\n`);
    for (const [name, answer] of Object.entries(answers)) {
      expect({ name, status: answer.status, body: answer.body }).toEqual({ name, status: 503, body: BUSY });
      expect({ name, fast: answer.ms < BOUND_MS }).toEqual({ name, fast: true });
    }

    // Thawed, the same clients answer again: nothing was left broken.
    const deadline = Date.now() + 30_000;
    while ((await api('GET', '/health')).status !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await api('GET', `/api/v1/default/verifications/${id}`)).status).toBe(200);
    expect((await api('GET', '/api/v1/default/verifications', undefined, { token: uncached })).status).toBe(200);
    expect((await fetch(`${runtime.url}${widget}/session`)).status).toBe(200);
    const again = await api('POST', '/api/v1/default/verifications', defaultBody());
    expect(again.status).toBe(201);
    expect((await api('PUT', `/api/v1/default/verifications/${again.body.data.id}/cancel`, { comment: 'Done', email: 'reviewer@example.com' })).status).toBe(200);

    // Every 503 says when to retry, the handlers' (src/http/errors.ts errorHeaders) as the authorizer's gateway response.
    for (const [name, answer] of Object.entries(answers)) expect({ name, retryAfter: answer.retryAfter }).toEqual({ name, retryAfter: '1' });
  });
});
