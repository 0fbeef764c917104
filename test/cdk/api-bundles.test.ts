import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { IdvStack } from '../../lib/stack';
import { ServiceFunction } from '../../lib/service-function';
import { matchRoute } from '../../local/server';
import { LOCAL_BUCKET, LOCAL_TABLE } from '../../local/runtime';
import { handlerFiles } from '../../src/http/routes';
import { LambdaHost } from '../../scripts/lambda-host';
import { NODE22 } from '../../scripts/offline-trace';
import { b64, png } from '../fixtures/images';
import { startTestRuntime } from '../integration/harness';

/**
 * Issue 14: every API function's bundle as `cdk synth` writes it (esbuild for real, the report's
 * node_modules installed), not the TypeScript source, runs in plain Node 22 outside the repository
 * against DynamoDB Local and the local S3 server, for at least one request through its real code
 * path: a module left external but needed at run time fails here, not in production. Step Functions,
 * EventBridge, SQS and Secrets Manager have no local server: a loopback endpoint answers their calls
 * (AWS_ENDPOINT_URL_<SERVICE>, read by the SDK) and records them. Takes about 3 to 4 minutes (the synth).
 */
const SECRET = 's'.repeat(48);
const FAKE = {
  SESSION_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:idv-session',
  STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:idv',
  EVENT_BUS_NAME: 'idv-bus',
};

interface Synthesized {
  file: string;
  dir: string;
  /** The function's environment from the template, its references resolved to the local services. */
  env: Record<string, string>;
}

let outdir: string;
let functions: Map<string, Synthesized>;
let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
let aws: { server: Server; url: string; calls: { target: string; body: any }[] };
const hosts = new Map<string, LambdaHost>();

/** The endpoint Step Functions, EventBridge, SQS and Secrets Manager calls go to, by X-Amz-Target. */
function startAwsEndpoint(): Promise<typeof aws> {
  const calls: { target: string; body: any }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      calls.push({ target, body });
      const answers: Record<string, () => unknown> = {
        'secretsmanager.GetSecretValue': () => ({ ARN: FAKE.SESSION_SECRET_ARN, Name: 'idv-session', SecretString: SECRET, VersionId: 'v1' }),
        'AWSStepFunctions.StartExecution': () => ({ executionArn: `${FAKE.STATE_MACHINE_ARN.replace(':stateMachine:', ':execution:')}:${body.name}`, startDate: Date.now() / 1000 }),
        'AWSEvents.PutEvents': () => ({ FailedEntryCount: 0, Entries: (body.Entries ?? []).map((_: unknown, i: number) => ({ EventId: `e${i}` })) }),
        'AmazonSQS.SendMessage': () => ({ MessageId: 'm1', MD5OfMessageBody: createHash('md5').update(body.MessageBody ?? '').digest('hex') }),
      };
      const answer = answers[target];
      res.writeHead(answer ? 200 : 400, { 'Content-Type': 'application/x-amz-json-1.1' }).end(JSON.stringify(answer ? answer() : { __type: 'UnknownOperationException' }));
    });
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls })));
}

/** Synthesizes the whole stack with bundling into `outdir`; each function's asset folder and environment. */
function synthesize(): Map<string, Synthesized> {
  const app = new App({ outdir });
  const stack = new IdvStack(app, 'BundleTest', { env: { account: '123456789012', region: 'eu-west-1' } });
  const template = app.synth().getStackByName(stack.stackName).template as { Resources: Record<string, { Properties?: any }> };
  const out = new Map<string, Synthesized>();
  for (const fn of stack.node.findAll().filter((c): c is ServiceFunction => c instanceof ServiceFunction)) {
    const props = template.Resources[Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnElement)]?.Properties;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries<unknown>(props.Environment?.Variables ?? {})) {
      if (typeof value === 'string') env[key] = value;
      else if (key === 'TABLE_NAME') env[key] = LOCAL_TABLE;
      else if (key === 'BUCKET_NAME') env[key] = LOCAL_BUCKET;
      else if (key === 'DELIVERY_QUEUE_URL' || key === 'DEAD_LETTER_QUEUE_URL') env[key] = `${aws.url}/000000000000/${key.toLowerCase()}`;
      else if (key in FAKE) env[key] = FAKE[key as keyof typeof FAKE];
      else throw new Error(`${fn.file}: no local value for ${key}; add one here`);
    }
    out.set(fn.file, { file: fn.file, dir: join(app.outdir, `asset.${String(props.Code.S3Key).replace(/\.zip$/, '')}`), env });
  }
  return out;
}

/** The function's bundle, started on first use in its own Node 22 process with the deployed environment pointed at the local services. */
function host(file: string): LambdaHost {
  let h = hosts.get(file);
  if (h) return h;
  const fn = functions.get(file);
  if (!fn) throw new Error(`${file} was not synthesized`);
  const { dynamodb, s3, s3Public } = runtime.runtime.endpoints;
  h = new LambdaHost(NODE22, join(fn.dir, 'index.js'), outdir, {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...fn.env,
    AWS_REGION: 'us-east-1',
    AWS_LAMBDA_FUNCTION_NAME: file,
    AWS_ACCESS_KEY_ID: runtime.runtime.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: runtime.runtime.credentials.secretAccessKey,
    DYNAMODB_ENDPOINT: dynamodb,
    S3_ENDPOINT: s3,
    S3_PUBLIC_ENDPOINT: s3Public,
    AWS_ENDPOINT_URL_SFN: aws.url,
    AWS_ENDPOINT_URL_EVENTBRIDGE: aws.url,
    AWS_ENDPOINT_URL_SQS: aws.url,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: aws.url,
    POWERTOOLS_LOG_LEVEL: 'WARN',
  });
  hosts.set(file, h);
  return h;
}

type Principal = { principalId: string; context?: Record<string, unknown> };
let principal: Principal | undefined;
const served = new Set<string>();

/** One request as API Gateway hands it to the route's function (the authorizer's bundle checks the token first). */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  const match = matchRoute(method, path);
  if (!match) throw new Error(`no route for ${method} ${path}`);
  const token = runtime.runtime.token;
  let authorizer: Record<string, unknown> | null = null;
  if (match.route.auth) {
    const allowed = (principal ??= await host('authorizer').invoke<Principal>({ type: 'TOKEN', authorizationToken: `Bearer ${token}`, methodArn: 'arn:aws:execute-api:us-east-1:000000000000:api/v1/GET/health' }));
    served.add('authorizer');
    authorizer = { principalId: allowed.principalId, ...(allowed.context ?? {}) };
  }
  const headers: Record<string, string> = { Host: '127.0.0.1', 'X-Forwarded-Proto': 'http', Accept: 'application/json', ...(body !== undefined && { 'Content-Type': 'application/json' }), ...(match.route.auth && { Authorization: `Bearer ${token}` }) };
  const requestId = `req-${served.size}-${Date.now()}`;
  const event = {
    resource: match.route.path,
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: Object.keys(match.params).length ? match.params : null,
    stageVariables: { baseUrl: runtime.runtime.url },
    body: body === undefined ? null : JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { accountId: '000000000000', apiId: 'bundles', authorizer, httpMethod: method, identity: { sourceIp: '127.0.0.1' }, path, protocol: 'HTTP/1.1', requestId, requestTimeEpoch: Date.now(), resourceId: 'r', resourcePath: match.route.path, stage: 'v1', domainName: '127.0.0.1' },
  };
  const fn = host(match.route.handler);
  let result: { statusCode: number; body: string };
  try {
    result = await fn.invoke(event);
  } catch (error) {
    throw new Error(`${match.route.handler}: ${(error as Error).message}\n${fn.output.slice(-2000)}`);
  }
  served.add(match.route.handler);
  if (result.statusCode >= 500) throw new Error(`${match.route.handler} answered ${result.statusCode} ${result.body}\n${fn.output.slice(-2000)}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.body);
  } catch {
    parsed = undefined;
  }
  return { status: result.statusCode, body: parsed, text: result.body };
}

beforeAll(async () => {
  // Outside the repository: a module missing from a bundle cannot be found in any node_modules above it.
  outdir = mkdtempSync(join(tmpdir(), 'idv-bundles-synth-'));
  for (let dir = outdir; dir !== dirname(dir); dir = dirname(dir)) expect([dir, existsSync(join(dirname(dir), 'node_modules'))]).toEqual([dir, false]);
  aws = await startAwsEndpoint();
  functions = synthesize();
  runtime = await startTestRuntime();
}, 900_000);

afterAll(async () => {
  for (const h of hosts.values()) h.stop();
  await runtime?.stop();
  aws?.server.close();
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('synthesized bundles, each in plain Node 22 against the local services', () => {
  it('serve a whole verification, its documents, widget link and webhooks: every API function once, through its data layer', async () => {
    const health = await call('GET', '/health');
    expect([health.status, health.body]).toMatchObject([200, { dependencies: { dynamodb: 'ok' } }]);
    expect((await call('GET', '/api/v1/openapi.json')).status).toBe(200);
    expect((await call('GET', '/api/v1/flows')).body.data.map((f: { path: string }) => f.path)).toContain('default');
    expect((await call('GET', '/api/v1/default/configuration')).status).toBe(200);
    await expect(host('authorizer').invoke({ type: 'TOKEN', authorizationToken: 'Bearer idv_unknown-token', methodArn: 'arn:aws:execute-api:us-east-1:000000000000:api/v1/GET/x' })).rejects.toThrow('Unauthorized');

    const body = {
      vendor_reference: 'bundle-1',
      person: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-12-10' },
      address: { street: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'USA' },
      documents: { photo_id: { type: 'Passport', number: 'P123', country: 'GBR' }, proof_of_address: { type: 'Utility Bill', country: 'USA' } },
    };
    const created = await call('POST', '/api/v1/default/verifications', body);
    expect(created.status).toBe(201);
    const v = created.body.data;
    const base = `/api/v1/default/verifications/${v.id}`;
    const link = new URL(v.url).pathname;
    expect((await call('GET', base)).body.data.id).toBe(v.id);
    expect((await call('PATCH', base, { vendor_reference: 'bundle-2' })).body.data.vendor_reference).toBe('bundle-2');
    expect((await call('GET', '/api/v1/default/verifications')).body.data.map((x: { id: string }) => x.id)).toContain(v.id);
    expect((await call('GET', '/api/v1/verifications')).status).toBe(200);

    const doc = await call('POST', '/api/v1/default/documents', { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(64, 48, 3)) } });
    expect(doc.status).toBe(201);
    const docPath = `/api/v1/default/documents/${doc.body.data.id}`;
    expect((await call('GET', docPath)).body.data.status_label).toBe('Uploaded');
    expect(await call('PATCH', docPath, { verification: v.id, document: { country: 'FRA' } })).toMatchObject({ status: 200, body: { data: { status_label: 'Uploaded' } } });
    const spare = await call('POST', '/api/v1/default/documents', { verification: v.id, document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(png(32, 32, 4)) } });
    expect((await call('DELETE', `/api/v1/default/documents/${spare.body.data.id}`)).status).toBe(204);

    // The end-user link: the session secret comes from Secrets Manager, as deployed.
    expect((await call('GET', link)).status).toBe(200);
    expect((await call('GET', `${link}/qr`)).status).toBe(200);
    expect(await call('GET', `${link}/session`)).toMatchObject({ status: 200, body: { data: { status_label: 'Started', open: true } } });
    const selfie = await call('POST', `${link}/documents`, { document: { context_type: 'SELFIE', type: 6, country: 'GBR', front_side_data: b64(png(40, 40, 9)) } });
    expect(selfie.status).toBe(201);
    expect((await call('DELETE', `${link}/documents/${selfie.body.data.id}`)).status).toBe(204);
    expect((await call('POST', `${link}/documents`, { document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(png(64, 48, 5)) } })).status).toBe(201);
    expect(aws.calls.some((c) => c.target === 'secretsmanager.GetSecretValue')).toBe(true);

    // Submit starts the state machine (Step Functions' StartExecution); the link cannot submit again.
    expect((await call('PUT', `${base}/submit`)).body.data.status_label).toBe('Submitted');
    expect(aws.calls.filter((c) => c.target === 'AWSStepFunctions.StartExecution').map((c) => c.body.stateMachineArn)).toEqual([FAKE.STATE_MACHINE_ARN]);
    expect((await call('PUT', `${link}/submit`)).status).toBe(400);
    const action = { comment: 'ok', email: 'reviewer@example.com' };
    expect((await call('PUT', `${base}/approve`, action)).body.data.status_label).toBe('Approved');
    // The PDF report draws the uploaded image with sharp from its own asset's node_modules.
    const pdf = await call('GET', `${docPath}/pdf`);
    expect(pdf.status).toBe(200);
    expect(Buffer.from(pdf.body.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');

    // A second verification, canceled: the other decisions answer 400 from the status they read.
    const other = (await call('POST', '/api/v1/default/verifications', body)).body.data;
    const otherPath = `/api/v1/default/verifications/${other.id}`;
    expect((await call('PUT', `${otherPath}/cancel`, action)).body.data.status_label).toBe('Canceled');
    for (const op of ['reject', 'resubmit']) expect([op, await call('PUT', `${otherPath}/${op}`, action).then((r) => [r.status, r.body.message])]).toEqual([op, [400, 'Verification is canceled']]);

    const hook = await call('POST', '/api/v1/default/webhooks', { url: 'https://hooks.example.com/idv', events: ['VerificationFinished'] });
    expect(hook.status).toBe(201);
    const hookPath = `/api/v1/default/webhooks/${hook.body.data.id}`;
    expect((await call('GET', '/api/v1/default/webhooks')).body.data.map((h: { id: string }) => h.id)).toContain(hook.body.data.id);
    expect((await call('GET', `${hookPath}/deliveries`)).status).toBe(200);
    expect((await call('POST', `${hookPath}/deliveries/del_00000000000000000000000000/retry`)).status).toBe(404);
    expect((await call('DELETE', hookPath)).status).toBe(204);
    expect((await call('DELETE', base)).status).toBe(204);
    expect((await call('GET', base)).status).toBe(404);

    expect((await call('GET', '/widget/widget.js')).text).toContain('function');
    expect((await call('GET', '/console')).status).toBe(200);

    expect([...served].sort()).toEqual([...handlerFiles(), 'authorizer'].sort());
    // The verification's events went to EventBridge (its outbox entry is written in the same transaction).
    expect(aws.calls.filter((c) => c.target === 'AWSEvents.PutEvents').length).toBeGreaterThan(0);
  }, 300_000);

  it('runs the scheduled jobs\' bundles once each on the same table', async () => {
    const scheduled = { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} };
    expect(await host('jobs/expire-verifications').invoke(scheduled)).toEqual({ expired: expect.any(Number) });
    expect(await host('jobs/purge-deleted').invoke(scheduled)).toEqual({ purged: expect.any(Number) });
    expect(await host('jobs/publish-outbox').invoke(scheduled)).toEqual({ published: expect.any(Number) });
    expect(await host('jobs/sweep-runs').invoke(scheduled)).toMatchObject({ restarted: 0, failed: 0 });
  }, 120_000);
});
