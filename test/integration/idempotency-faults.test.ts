import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { DynamoIdempotencyStore, STALE_CLAIM_SECONDS } from '../../src/adapters/dynamodb/idempotency-store';
import { createVerification, presentCreated } from '../../src/app/create-verification';
import { presentActed } from '../../src/app/verification-actions';
import { approveVerification } from '../../src/app/approve-verification';
import { getDeps } from '../../src/container';
import { ConflictError } from '../../src/domain/errors';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import type { StoredResponse, HeldClaim } from '../../src/ports/idempotency';
import { LOCAL_TABLE } from '../../local/runtime';
import { defaultBody, useTestRuntime } from './harness';

/**
 * The Idempotency-Key under faults, against DynamoDB Local: the key is recorded in the transaction of
 * the change it protects, so a failure after the commit (the response write, a crash) can never lead
 * a retry to carry the change out twice, not even after the stale-claim limit.
 */
class FaultyStore extends DynamoIdempotencyStore {
  clock = Math.floor(Date.now() / 1000);
  failCompletions = 0;
  constructor(...args: ConstructorParameters<typeof DynamoIdempotencyStore>) {
    super(args[0], args[1], () => this.clock);
  }
  override async complete(claim: HeldClaim, response: StoredResponse): Promise<void> {
    if (this.failCompletions > 0) {
      this.failCompletions -= 1;
      // As when the table stops answering right after the commit.
      throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
    }
    return super.complete(claim, response);
  }
}

function event(method: string, path: string, pathParameters: Record<string, string>, key: string, body: unknown, baseUrl: string): APIGatewayProxyEvent {
  return {
    httpMethod: method,
    path,
    pathParameters,
    queryStringParameters: null,
    headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    isBase64Encoded: false,
    stageVariables: { baseUrl },
    requestContext: { requestId: `req-${Math.random()}`, authorizer: { tokenId: 'tok_faults', tokenName: 'faults', flows: '*' } },
  } as unknown as APIGatewayProxyEvent;
}

const context = { functionName: 'test', awsRequestId: 'r', getRemainingTimeInMillis: () => 29_000 } as unknown as Context;

describe('Idempotency-Key under faults (DynamoDB Local)', () => {
  jest.setTimeout(60_000);
  const t = useTestRuntime();
  let store: FaultyStore;
  const deps = async (ports: Parameters<typeof getDeps>[0]) => ({ ...(await getDeps(ports)), idempotency: store });

  beforeEach(() => {
    store = new FaultyStore(t.h.runtime.doc, LOCAL_TABLE);
  });

  async function countByReference(reference: string): Promise<number> {
    const list = await t.api('GET', `/api/v1/default/verifications?search=${encodeURIComponent(reference)}`);
    expect(list.status).toBe(200);
    return list.body.meta.total as number;
  }

  it('answers a create whose response was not stored from the committed verification, also after the stale-claim limit', async () => {
    const create = httpHandler(route.createVerification, (d, req) => createVerification(d, req.info, req.params.flow, req.body), {
      deps,
      replay: (d, req, id) => presentCreated(d, req.info, req.params.flow, id),
    });
    const reference = `faults-${Date.now()}`;
    const body = { ...defaultBody(), vendor_reference: reference };
    const send = () => create(event('POST', '/api/v1/default/verifications', { flow: 'default' }, `key-${reference}`, body, t.h.runtime.url), context) as Promise<APIGatewayProxyResult>;

    store.failCompletions = 1;
    const first = await send();
    // The change committed: the failed response write is not the client's problem (it was a 500 before).
    expect(first.statusCode).toBe(201);
    const id = JSON.parse(first.body).data.id as string;

    const retry = await send();
    expect(retry.statusCode).toBe(201);
    expect(retry.headers?.['Idempotent-Replayed']).toBe('true');
    expect(JSON.parse(retry.body).data).toMatchObject({ id, vendor_reference: reference, status_label: 'Started' });
    expect(JSON.parse(retry.body).data.url).toBe(JSON.parse(first.body).data.url);

    // Past the stale-claim limit a committed key is not free again (before: a second verification).
    store.clock += STALE_CLAIM_SECONDS + 5;
    const late = await send();
    expect(late.statusCode).toBe(201);
    expect(JSON.parse(late.body).data.id).toBe(id);
    expect(await countByReference(reference)).toBe(1);
  });

  it('answers a repeated approval whose response was not stored with the verification, without a second decision', async () => {
    const created = await t.api('POST', '/api/v1/default/verifications', { ...defaultBody(), vendor_reference: `approve-${Date.now()}` });
    const id = created.body.data.id as string;
    const approve = httpHandler(route.approveVerification, (d, req) => approveVerification(d, req.info, req.params.flow, req.params.verificationId, req.body), {
      deps,
      replay: (d, req, vid) => presentActed(d, req.info, req.params.flow, vid),
    });
    const send = () =>
      approve(
        event('PUT', `/api/v1/default/verifications/${id}/approve`, { flow: 'default', verificationId: id }, `approve-${id}`, { comment: 'looks right', email: 'r@example.com' }, t.h.runtime.url),
        context,
      ) as Promise<APIGatewayProxyResult>;
    store.failCompletions = 1;
    expect((await send()).statusCode).toBe(200);
    const again = await send();
    // Before: "still being processed", then (after 60 s) "already approved": never the first outcome.
    expect(again.statusCode).toBe(200);
    expect(JSON.parse(again.body).data).toMatchObject({ id, status_label: 'Approved' });
    const got = await t.api('GET', `/api/v1/default/verifications/${id}`);
    expect(got.body.data.history.filter((h: { to_status: string }) => h.to_status === 'Approved')).toHaveLength(1);
  });

  it('lets a request whose stale claim was taken over commit nothing', async () => {
    const claimed = await store.claim('tok_faults#createVerification', 'taken-over', 'h');
    if (claimed.state !== 'claimed') throw new Error(`expected a claim, got ${claimed.state}`);
    store.clock += STALE_CLAIM_SECONDS + 1;
    const newer = await store.claim('tok_faults#createVerification', 'taken-over', 'h');
    expect(newer.state).toBe('claimed');
    const reference = `zombie-${Date.now()}`;
    const d = await getDeps(['flows', 'verifications', 'clock', 'ids', 'sessionSecret', 'publicBaseUrl', 'metrics']);
    const zombie = store.guard(claimed.claim, () => createVerification(d as never, { baseUrl: t.h.runtime.url }, 'default', { ...defaultBody(), vendor_reference: reference }));
    await expect(zombie).rejects.toBeInstanceOf(ConflictError);
    expect(await countByReference(reference)).toBe(0);
  });
});
