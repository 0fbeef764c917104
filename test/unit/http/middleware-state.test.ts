import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { invokeConcurrently } from '../../../local/invocations';
import { route } from '../../../src/http/routes';
import { fakeDeps, InMemoryIdempotency } from '../../fakes/in-memory';
import { capturedLogLines } from '../../fixtures/log-lines';

function event(id: string, key: string, requestId = `req-${id}`): APIGatewayProxyEvent {
  return {
    httpMethod: 'PUT',
    path: `/api/v1/verifications/${id}/submit`,
    pathParameters: { verificationId: id },
    queryStringParameters: null,
    headers: { 'Idempotency-Key': key },
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId, authorizer: { tokenId: 'tok_1', flows: '*' } },
  } as unknown as APIGatewayProxyEvent;
}

function context(requestId: string): Context {
  return {
    functionName: 'submitVerification',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:submitVerification',
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    getRemainingTimeInMillis: () => 29_000,
  } as unknown as Context;
}

/** A promise and the function that resolves it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

// The access line is an INFO line; the logger takes its level when its module is first imported.
let httpHandler: typeof import('../../../src/http/handler').httpHandler;
const previousLevel = process.env.POWERTOOLS_LOG_LEVEL;
beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  ({ httpHandler } = await import('../../../src/http/handler'));
});
afterAll(() => {
  if (previousLevel === undefined) delete process.env.POWERTOOLS_LOG_LEVEL;
  else process.env.POWERTOOLS_LOG_LEVEL = previousLevel;
});

/** One handler instance of an idempotent operation whose use case waits until its request's gate opens. */
function gatedHandler() {
  const { deps } = fakeDeps();
  const store = new InMemoryIdempotency();
  deps.idempotency = store;
  const gates = { a: gate(), b: gate() };
  const handler = httpHandler(
    route.submitVerification,
    async (_deps, req) => {
      const id = req.params.verificationId as 'a' | 'b';
      await gates[id].opened;
      return { id };
    },
    { deps: async () => deps },
  );
  /** As the local front calls it: each invocation in its own context, as on a Lambda Managed Instance. */
  const invoke = (id: 'a' | 'b', key: string, requestId: string) => invokeConcurrently(requestId, () => handler(event(id, key, requestId), context(requestId)));
  /** Both requests claim their key before either finishes; then the first one finishes first. */
  const overlap = async () => {
    const first = invoke('a', 'key-a', 'req-a');
    const second = invoke('b', 'key-b', 'req-b');
    await new Promise((resolve) => setImmediate(resolve));
    gates.a.open();
    const a = await first;
    gates.b.open();
    return { a, b: await second };
  };
  return { store, invoke, overlap };
}

describe('middleware state is per request', () => {
  it('stores each response under its own Idempotency-Key when two requests overlap in one handler', async () => {
    const { store, invoke, overlap } = gatedHandler();
    const log = capturedLogLines();
    try {
      const { a, b } = await overlap();
      expect(JSON.parse(a.body)).toEqual({ data: { id: 'a' } });
      expect(JSON.parse(b.body)).toEqual({ data: { id: 'b' } });
      expect(JSON.parse(store.records.get('tok_1#submitVerification#key-a')?.response?.body ?? 'null')).toEqual({ data: { id: 'a' } });
      expect(JSON.parse(store.records.get('tok_1#submitVerification#key-b')?.response?.body ?? 'null')).toEqual({ data: { id: 'b' } });

      const replay = await invoke('a', 'key-a', 'req-a2');
      expect(replay.headers?.['Idempotent-Replayed']).toBe('true');
      expect(JSON.parse(replay.body)).toEqual({ data: { id: 'a' } });
    } finally {
      log.restore();
    }
  });

  it('writes one access line per request, a replay included, each with its own request id and the Lambda context', async () => {
    const { invoke, overlap } = gatedHandler();
    const log = capturedLogLines();
    try {
      await overlap();
      await invoke('a', 'key-a', 'req-a2');
    } finally {
      log.restore();
    }
    const access = log.lines().filter((l) => l.message === 'request');
    expect(access.map((l) => [l.requestId, l.function_request_id, l.verificationId, l.statusCode])).toEqual([
      ['req-a', 'req-a', 'a', 200],
      ['req-b', 'req-b', 'b', 200],
      ['req-a2', 'req-a2', 'a', 200],
    ]);
    expect(access[0]).toMatchObject({ operation: 'submitVerification', function_name: 'submitVerification', cold_start: expect.any(Boolean) });
    expect(access[2]).toMatchObject({ cold_start: false });
  });
});
