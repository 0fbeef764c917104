import { DynamoTokenRepository } from '../../src/adapters/dynamodb/token-repository';
import { hashToken } from '../../src/app/tokens';
import { expectMatchesContract, expectRequestMatchesContract } from './contract';
import { type ApiResponse, defaultBody, useTestRuntime } from './harness';

const t = useTestRuntime();
const REVIEWER = 'ada.reviewer@example.com';
const REVIEWER_TOKEN = 'idv_reviewer-token-for-tests';

async function as(token: string, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  const res = await fetch(`${t.h.runtime.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  // The contract describes what a reviewer token sends and gets too (no e-mail: the token's name acts).
  expectMatchesContract(method, path, res.status, parsed);
  expectRequestMatchesContract(method, path, res.status, body);
  return { status: res.status, headers: res.headers, body: parsed } as ApiResponse;
}

describe('named reviewer tokens', () => {
  beforeAll(async () => {
    await new DynamoTokenRepository(t.h.runtime.doc, 'idv-local').put({ name: REVIEWER, hash: hashToken(REVIEWER_TOKEN), createdAt: 'now', reviewer: true });
  });

  const created = async () => (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data.id as string;

  it('tells the console who the token is', async () => {
    expect(await as(REVIEWER_TOKEN, 'GET', '/api/v1/me')).toMatchObject({ status: 200, body: { data: { name: REVIEWER, reviewer: true, flows: '*' } } });
    const me = await t.api('GET', '/api/v1/me');
    expect(me).toMatchObject({ status: 200, body: { data: { reviewer: false, flows: '*' } } });
  });

  it("records the token's name as the actor of an action, with no e-mail in the request", async () => {
    const id = await created();
    const res = await as(REVIEWER_TOKEN, 'PUT', `/api/v1/default/verifications/${id}/cancel`, { comment: 'Duplicate request' });
    expect(res.status).toBe(200);
    const history = (await t.api('GET', `/api/v1/default/verifications/${id}`)).body.data.history;
    expect(history[0]).toMatchObject({ to_status: 'Canceled', user: REVIEWER, comment: 'Duplicate request' });
  });

  it('records it for a status change too, and accepts its own address spelled in any case', async () => {
    const id = await created();
    expect((await as(REVIEWER_TOKEN, 'PATCH', `/api/v1/default/verifications/${id}`, { status: 8, comment: 'On hold' })).status).toBe(200);
    expect((await as(REVIEWER_TOKEN, 'PUT', `/api/v1/default/verifications/${id}/approve`, { comment: 'ok', email: REVIEWER.toUpperCase() })).status).toBe(200);
    const history = (await t.api('GET', `/api/v1/default/verifications/${id}`)).body.data.history;
    expect(history.slice(0, 2).map((h: { user: string }) => h.user)).toEqual([REVIEWER, REVIEWER]);
  });

  it('refuses a request of a reviewer token that names someone else (422), and changes nothing', async () => {
    const id = await created();
    const res = await as(REVIEWER_TOKEN, 'PUT', `/api/v1/default/verifications/${id}/cancel`, { comment: 'x', email: 'someone.else@example.com' });
    expect(res).toMatchObject({ status: 422, body: { errors: { email: [`must be left out: this reviewer token acts as ${REVIEWER}`] } } });
    expect((await t.api('GET', `/api/v1/default/verifications/${id}`)).body.data.status_label).toBe('Started');
  });

  it('still requires the e-mail from other tokens, as the spec says', async () => {
    const id = await created();
    const res = await t.api('PUT', `/api/v1/default/verifications/${id}/cancel`, { comment: 'x' });
    expect(res).toMatchObject({ status: 422, body: { errors: { email: ['is required'] } } });
  });
});
