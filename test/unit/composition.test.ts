import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Deps } from '../../src/app/deps';
import { getDeps } from '../../src/container';
import { httpHandler } from '../../src/http/handler';
import { handlerFiles, portsOf, route, routes } from '../../src/http/routes';

// Deployed configuration: the session secret lives in Secrets Manager, whose client is watched below.
const ENV = {
  TABLE_NAME: 'table',
  BUCKET_NAME: 'bucket',
  SESSION_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:session',
  STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:123456789012:stateMachine:idv',
  AWS_REGION: 'eu-west-1',
};
const saved: Record<string, string | undefined> = {};
let secretReads: jest.SpyInstance;

beforeAll(() => {
  for (const [name, value] of Object.entries(ENV)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  saved.SESSION_SECRET = process.env.SESSION_SECRET;
  delete process.env.SESSION_SECRET;
  secretReads = jest.spyOn(SecretsManagerClient.prototype, 'send').mockImplementation(async () => ({ SecretString: 'session-key' }));
});

afterAll(() => {
  secretReads.mockRestore();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function event(path: string): APIGatewayProxyEvent {
  return {
    httpMethod: 'GET',
    path,
    headers: {},
    body: null,
    isBase64Encoded: false,
    pathParameters: null,
    queryStringParameters: null,
    multiValueHeaders: {},
    multiValueQueryStringParameters: null,
    stageVariables: null,
    resource: path,
    requestContext: { requestId: 'req-1', authorizer: { tokenId: 'tok_1', flows: '*' } } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}
const context = {} as Context;

describe('composition per function', () => {
  it('reads the session secret only for the functions that declare it, and once per process', async () => {
    await getDeps(portsOf(route.health));
    await getDeps(['tokens']);
    await getDeps(portsOf(route.getOpenApi));
    expect(secretReads).not.toHaveBeenCalled();
    const widget = await getDeps(portsOf(route.getWidgetSession));
    expect(Buffer.from(widget.sessionSecret).toString('utf8')).toBe('session-key');
    await getDeps(portsOf(route.createVerification));
    expect(secretReads).toHaveBeenCalledTimes(1);
  });

  it("hands a route's use case only the ports the route declares", async () => {
    const deps = await getDeps(portsOf(route.getVerification));
    expect(deps.flows).toBeDefined();
    expect(deps.verifications).toBeDefined();
    expect(() => (deps as unknown as Deps).webhooks).toThrow("Undeclared dependency 'webhooks'");
    expect(() => (deps as unknown as Deps).workflow).toThrow("Undeclared dependency 'workflow'");
    expect(Object.keys(deps).sort()).toEqual([...route.getVerification.needs.ports].sort());
  });

  it('answers 500 when a handler reaches for a port its route does not declare, and runs when it is declared', async () => {
    const undeclared = httpHandler(route.listFlows, async (deps) => (deps as unknown as Deps).tokens.findByHash('x'));
    expect((await undeclared(event('/api/v1/flows'), context)).statusCode).toBe(500);
    const declared = httpHandler(route.listFlows, async (deps) => typeof deps.flows.list);
    const ok = await declared(event('/api/v1/flows'), context);
    expect(ok).toMatchObject({ statusCode: 200, body: JSON.stringify({ data: 'function' }) });
  });

  it('wires each function file to the routes it serves, by their record', () => {
    for (const file of handlerFiles()) {
      const text = readFileSync(join(__dirname, '..', '..', 'functions', `${file}.ts`), 'utf8');
      const served = routes.filter((r) => r.handler === file).map((r) => r.operation);
      const wired = [...text.matchAll(/httpHandler\(route\.(\w+)/g)].map((m) => m[1]);
      expect(wired).toHaveLength(1);
      expect(served).toContain(wired[0]);
      // Nothing about the operation is restated in the function file.
      expect(text).not.toMatch(/status:|operation:|\?\? ''/);
    }
  });

  it('gives every idempotent route the idempotency store and no other route', () => {
    for (const r of routes) expect(portsOf(r).includes('idempotency')).toBe(r.idempotent === true);
  });

  it('gives every idempotent route a replay: a retry after a lost response is answered from what committed', async () => {
    for (const r of routes.filter((x) => x.idempotent)) {
      const { handler } = (await import(join(__dirname, '..', '..', 'functions', `${r.handler}.ts`))) as { handler: { replays: boolean } };
      expect({ operation: r.operation, replays: handler.replays }).toEqual({ operation: r.operation, replays: true });
    }
  });
});
