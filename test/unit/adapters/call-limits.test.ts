import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { BoundedRetryStrategy, CALL_LIMITS, callBudgetMs, createClients, withinBudget } from '../../../src/clients';
import { loadConfig } from '../../../src/config';
import { ServiceUnavailableError } from '../../../src/domain/errors';

/** A server that accepts connections and reads requests but never answers: a frozen DynamoDB, as far as a client can tell. */
async function silentServer(): Promise<{ server: Server; endpoint: string; attempts: () => number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  let requests = 0;
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (chunk) => {
      requests += (chunk.toString('latin1').match(/^POST /gm) ?? []).length;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    endpoint: `http://127.0.0.1:${port}`,
    attempts: () => requests,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const clientsFor = (endpoint: string) =>
  createClients(loadConfig({ AWS_REGION: 'us-east-1', DYNAMODB_ENDPOINT: endpoint }), { accessKeyId: 'a', secretAccessKey: 'b' });
const getItem = new GetItemCommand({ TableName: 't', Key: { PK: { S: 'x' } } });
const info = (errorType: 'TRANSIENT' | 'THROTTLING' | 'SERVER_ERROR' | 'CLIENT_ERROR', name = 'X') => ({ errorType, error: Object.assign(new Error(name), { name }) }) as never;

describe('the bounded retry', () => {
  const limits = { connectionMs: 1, attemptMs: 1, maxAttempts: 3, backoffCapsMs: [100, 200] };

  it('retries a transient or throttled failure up to maxAttempts, each pause below its cap', async () => {
    const retry = new BoundedRetryStrategy(limits, () => 0.999);
    const first = await retry.acquireInitialRetryToken();
    const second = await retry.refreshRetryTokenForRetry(first, info('TRANSIENT', 'TimeoutError'));
    expect([second.getRetryCount(), second.getRetryDelay()]).toEqual([1, 99]);
    const third = await retry.refreshRetryTokenForRetry(second, info('THROTTLING'));
    expect([third.getRetryCount(), third.getRetryDelay()]).toEqual([2, 199]);
    await expect(retry.refreshRetryTokenForRetry(third, info('TRANSIENT'))).rejects.toThrow();
  });

  it('never retries a request the service refused', async () => {
    const retry = new BoundedRetryStrategy(limits);
    await expect(retry.refreshRetryTokenForRetry(await retry.acquireInitialRetryToken(), info('CLIENT_ERROR', 'ValidationException'))).rejects.toThrow();
  });

  it('stops retrying when an outage has spent its retry pool, and refills it with successes', async () => {
    const retry = new BoundedRetryStrategy({ ...limits, maxAttempts: 2 });
    const token = await retry.acquireInitialRetryToken();
    for (let i = 0; i < 50; i++) await retry.refreshRetryTokenForRetry(token, info('TRANSIENT', 'TimeoutError'));
    await expect(retry.refreshRetryTokenForRetry(token, info('TRANSIENT', 'TimeoutError'))).rejects.toThrow();
    for (let i = 0; i < 10; i++) retry.recordSuccess(await retry.acquireInitialRetryToken());
    await expect(retry.refreshRetryTokenForRetry(token, info('TRANSIENT', 'TimeoutError'))).resolves.toBeDefined();
  });

  it('states the budget of one call: every attempt timing out, every pause at its cap', () => {
    expect(callBudgetMs('dynamodb')).toBe(3 * 1500 + 100 + 200);
    for (const l of Object.values(CALL_LIMITS)) expect(l.backoffCapsMs).toHaveLength(l.maxAttempts - 1);
  });
});

describe('every SDK client the service builds', () => {
  it('carries the connection and attempt timeouts of its service, an overrun being an error', async () => {
    const clients = clientsFor('http://127.0.0.1:1');
    const built = { dynamodb: clients.dynamo, s3: clients.s3, sfn: clients.sfn, eventbridge: clients.eventBridge, sqs: clients.sqs, secrets: clients.secrets };
    for (const [service, client] of Object.entries(built)) {
      const limits = CALL_LIMITS[service as keyof typeof CALL_LIMITS];
      // The Node handler's resolved configuration (it reads it on first use).
      const handler = await (client.config.requestHandler as unknown as { configProvider: Promise<object> }).configProvider;
      expect({ service, ...handler }).toMatchObject({ service, connectionTimeout: limits.connectionMs, requestTimeout: limits.attemptMs, throwOnRequestTimeout: true });
      expect({ service, attempts: await client.config.maxAttempts() }).toEqual({ service, attempts: limits.maxAttempts });
      expect(client.config.retryStrategy).toBeDefined();
    }
  });
});

describe('a backing service that accepts but never answers (frozen)', () => {
  jest.setTimeout(30_000);
  let silent: Awaited<ReturnType<typeof silentServer>>;
  beforeEach(async () => {
    silent = await silentServer();
  });
  afterEach(async () => {
    await silent.close();
  });

  it('fails a table call with ServiceUnavailableError after its attempts, instead of hanging', async () => {
    const error = await clientsFor(silent.endpoint).dynamo.send(getItem).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(silent.attempts()).toBe(CALL_LIMITS.dynamodb.maxAttempts);
  });

  it("ends the call when the request's budget runs out, and sends no retry for it afterwards", async () => {
    const error = await withinBudget(300, () => clientsFor(silent.endpoint).dynamo.send(getItem)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    // The first attempt runs on until its own timeout; no second one follows it.
    await new Promise((r) => setTimeout(r, CALL_LIMITS.dynamodb.attemptMs + 500));
    expect(silent.attempts()).toBe(1);
    // A call made once the budget is spent is not sent at all.
    const late = await withinBudget(0, () => clientsFor(silent.endpoint).dynamo.send(getItem)).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(ServiceUnavailableError);
    expect(silent.attempts()).toBe(1);
  });
});
