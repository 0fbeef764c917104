import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import sharp from 'sharp';
import { IdvStack } from '../../lib/stack';
import { OBSERVER_WORKER, ServiceFunction } from '../../lib/service-function';
import { matchRoute } from '../../local/server';
import { LOCAL_BUCKET, LOCAL_TABLE } from '../../local/runtime';
import { handlerFiles } from '../../src/http/routes';
import { LambdaHost } from '../../scripts/lambda-host';
import { folderSize } from '../../scripts/offline-assets';
import { copyWithProbe, NODE22, probeCases, probeEnv } from '../../scripts/offline-trace';
import { expectedData, generateDocument } from '../../scripts/documents/generate';
import { b64, png } from '../fixtures/images';
import { startTestRuntime } from '../integration/harness';

/**
 * Issue 14: what `cdk synth -c extractor=offline` writes, bundled for real (esbuild; npm ci of the
 * engine packages and their prune for the two extraction functions, of sharp and pdf.js for the PDF
 * report), run from the synthesized folders themselves in plain Node 22, outside the repository (no
 * node_modules above them to fall back to), against DynamoDB Local and the local S3 server:
 * - the offline extraction assets fit Lambda's 250 MiB with margin, and extract;
 * - every API function's bundle (and the authorizer's, and the jobs') serves a request through its
 *   real code path, so that a module left external but needed at run time fails here, not in
 *   production. The API bundles are the same in the default (`aws`) stack but for EXTRACTOR.
 * Step Functions, EventBridge, SQS and Secrets Manager have no local server: a loopback endpoint
 * answers their calls (AWS_ENDPOINT_URL_<SERVICE>, read by the SDK) and records them.
 * Takes 150 s on this 2-core machine, up to ~4 min when busy (the synth: 48 esbuild runs, three npm ci from the registry).
 */
const LAMBDA_UNZIPPED_LIMIT = 250 * 1024 * 1024;
/** Asserted bound for the offline assets: room for the engines' next versions under the limit. */
const BOUND = 200 * 1000 * 1000;
const SECRET = 's'.repeat(48);
const FAKE = {
  SESSION_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:idv-session',
  STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:idv',
  EVENT_BUS_NAME: 'idv-bus',
  // FinishRun's KMS signing key (lib/receipts.ts): no scenario here runs FinishRun.
  RECEIPT_KEY_ID: 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-0000-0000-000000000000',
  // EvaluateDocument's KMS HMAC key (lib/fingerprints.ts): no scenario here runs EvaluateDocument.
  FINGERPRINT_KEY_ID: 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-0000-0000-000000000001',
};

interface Synthesized {
  file: string;
  dir: string;
  /** The function's environment from the template, its references resolved to the local services. */
  env: Record<string, string>;
}

let outdir: string;
let copy: string;
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

/** Synthesizes the whole stack (offline extractor) with bundling into `outdir`; each function's asset folder and environment. */
function synthesize(): Map<string, Synthesized> {
  const app = new App({ outdir });
  const stack = new IdvStack(app, 'AssetsTest', { extractor: 'offline', env: { account: '123456789012', region: 'eu-west-1' } });
  const template = app.synth().getStackByName(stack.stackName).template as { Resources: Record<string, { Properties?: any }> };
  const out = new Map<string, Synthesized>();
  for (const fn of stack.node.findAll().filter((c): c is ServiceFunction => c instanceof ServiceFunction)) {
    const props = template.Resources[Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnElement)]?.Properties;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries<unknown>(props.Environment?.Variables ?? {})) {
      if (typeof value === 'string') env[key] = value;
      else if (key === 'TABLE_NAME') env[key] = LOCAL_TABLE;
      else if (key === 'BUCKET_NAME') env[key] = LOCAL_BUCKET;
      // The screening bucket: the local image bucket holds no snapshot pointer, so a screening flow's lists read as none (not evaluated).
      else if (key === 'SCREENING_BUCKET') env[key] = LOCAL_BUCKET;
      else if (key === 'DELIVERY_QUEUE_URL' || key === 'DEAD_LETTER_QUEUE_URL') env[key] = `${aws.url}/000000000000/${key.toLowerCase()}`;
      else if (key in FAKE) env[key] = FAKE[key as keyof typeof FAKE];
      else throw new Error(`${fn.file}: no local value for ${key}; add one here`);
    }
    out.set(fn.file, { file: fn.file, dir: join(app.outdir, `asset.${String(props.Code.S3Key).replace(/\.zip$/, '')}`), env });
  }
  return out;
}

/** The function's bundle, started on first use in its own Node 22 process with the deployed environment pointed at the local services. */
function host(file: string, dir = functions.get(file)?.dir): LambdaHost {
  let h = hosts.get(file);
  if (h) return h;
  const fn = functions.get(file);
  if (!fn || !dir) throw new Error(`${file} was not synthesized`);
  const { dynamodb, s3, s3Public } = runtime.runtime.endpoints;
  h = new LambdaHost(NODE22, join(dir, 'index.js'), outdir, {
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
  outdir = mkdtempSync(join(tmpdir(), 'idv-assets-synth-'));
  aws = await startAwsEndpoint();
  functions = synthesize();
  copy = copyWithProbe(required('events/pre-extract').dir);
  // Nothing above the synthesized folders and the copy has a node_modules that Node's resolution could fall back to.
  for (const start of [outdir, copy]) for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) expect([dir, existsSync(join(dirname(dir), 'node_modules'))]).toEqual([dir, false]);
  runtime = await startTestRuntime();
}, 900_000);

afterAll(async () => {
  for (const h of hosts.values()) h.stop();
  await runtime?.stop();
  aws?.server.close();
  for (const dir of [outdir, copy]) if (dir) rmSync(dir, { recursive: true, force: true });
});

const required = (file: string): Synthesized => {
  const fn = functions.get(file);
  if (!fn) throw new Error(`${file} was not synthesized`);
  return fn;
};

/** The files under an asset's node_modules. */
const listing = (dir: string): string[] => {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  walk(join(dir, 'node_modules'));
  return out.sort();
};

describe('offline extraction assets', () => {
  const extraction = () => [required('workflow/extract-document'), required('events/pre-extract')];

  it('fit Lambda\'s 250 MiB unzipped under a 200 MB bound, with no source maps and no other platform\'s binaries', () => {
    for (const { dir } of extraction()) {
      const { bytes, files } = folderSize(dir);
      expect(bytes).toBeLessThan(BOUND);
      expect(bytes).toBeLessThan(LAMBDA_UNZIPPED_LIMIT);
      expect(files).toBeLessThan(1000);
      const names = listing(dir);
      expect(names.filter((f) => f.endsWith('.map'))).toEqual([]);
      expect(names.filter((f) => /darwin|win32|arm64|musl/.test(f))).toEqual([]);
      expect(names.filter((f) => f.endsWith('.node')).every((f) => /linux[-/]x64/.test(f))).toBe(true);
    }
    const [extract, pre] = extraction();
    expect(listing(extract?.dir ?? '')).toEqual(listing(pre?.dir ?? ''));
  });

  it('runs the PreExtract bundle from a copy of its asset: a generated passport\'s MRZ read into the extraction cache', async () => {
    const passport = await generateDocument('passport', 'photographed', 11);
    const bill = await generateDocument('utility-bill', 'clean', 12, undefined, passport.identity);
    const created = await call('POST', '/api/v1/default/verifications', { vendor_reference: 'asset-1', ...expectedData(passport, bill) });
    expect(created.status).toBe(201);
    const verificationId = created.body.data.id as string;
    const upload = await call('POST', '/api/v1/default/documents', {
      verification: verificationId,
      document: { context_type: 'PHOTO_ID', type: 1, country: passport.country, front_side_data: passport.front.toString('base64') },
    });
    expect(upload.status).toBe(201);
    const documentId = upload.body.data.id as string;

    const event = { detail: { id: 'evt_1', type: 'DocumentUploaded', created_at: '', flow: 'default', data: { verification_id: verificationId, document: { id: documentId } } } };
    expect(await host('events/pre-extract', copy).invoke(event)).toEqual({ cached: true });
    const item = (await runtime.runtime.doc.send(new GetCommand({ TableName: LOCAL_TABLE, Key: { PK: `XTR#${documentId}`, SK: 'XTR' } }))).Item;
    const p = passport.identity;
    expect(item?.data.person).toMatchObject({ surname: p.surname, given_names: p.givenNames, date_of_birth: p.dateOfBirth });
    expect(item?.data.document).toMatchObject({ number: p.documentNumber, expiration_date: p.expirationDate, country_code: passport.country });
  }, 300_000);

  it('loads every other engine from the same copy: licence barcode, PDF text layer, selfie comparison and the tesseract fallback', async () => {
    const { cases, truth } = await probeCases(copy, ['licence', 'bill-pdf', 'selfie']);
    writeFileSync(join(copy, 'cases.json'), JSON.stringify(cases));
    const { stdout } = await promisify(execFile)(NODE22, ['probe.js', 'cases.json', '--warm'], { cwd: copy, env: probeEnv(), encoding: 'utf8', timeout: 240_000, maxBuffer: 1 << 24 });
    const results = Object.fromEntries(stdout.trim().split('\n').map((l) => JSON.parse(l) as { name: string; data: any }).map((r) => [r.name, r.data]));
    const licence = truth.licence?.identity;
    expect(results.licence.document.number).toBe(licence?.documentNumber);
    expect(results.licence.person.surname).toBe(licence?.surname);
    const bill = truth['bill-pdf']?.identity;
    expect(results['bill-pdf'].address).toMatchObject({ street: bill?.street, zip: bill?.place.zip });
    expect(results.selfie.document.identified).toBe('true');
    expect(Number(results.selfie.document.selfie_comparison)).toBeGreaterThan(50);
  }, 300_000);

  it("observes a liveness capture from the same copy on two threads: Human's mesh and iris from the asset, the worker thread from its own bundle beside the code", async () => {
    expect(existsSync(join(copy, OBSERVER_WORKER.file))).toBe(true);
    expect(existsSync(join(required('workflow/extract-document').dir, OBSERVER_WORKER.file))).toBe(true);
    const frames = join(copy, 'frames');
    mkdirSync(frames);
    // A photograph of ../shared/faces (read in place, never copied): one person, near frontal.
    const selfie = readFileSync(join(__dirname, '..', '..', '..', 'shared', 'faces', 'images', 'p01-1.jpg'));
    const n = 22;
    // A head that tilts a little from frame to frame, as the widget sends it: downscaled JPEG frames.
    for (let i = 0; i < n; i++) writeFileSync(join(frames, `${String(i).padStart(3, '0')}.jpg`), await sharp(selfie).rotate(-5 + i * 0.5, { background: '#808080' }).resize(480, 480, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer());
    const { stdout } = await promisify(execFile)(NODE22, ['probe.js', '--liveness', 'frames'], { cwd: copy, env: probeEnv(), encoding: 'utf8', timeout: 240_000 });
    const seen = JSON.parse(stdout.trim()) as { faces: number[]; landmarks: number; described: number; threadRequests: number };
    expect(seen.faces).toEqual(Array.from({ length: n }, () => 1));
    expect(seen.landmarks).toBe(n);
    expect(seen.described).toBeGreaterThanOrEqual(4);
    // The worker meshed half the capture and described half the chosen frames.
    expect(seen.threadRequests).toBe(2);
  }, 300_000);

  it('loads the ExtractDocument bundle from its asset\'s code beside the same node_modules', async () => {
    copyFileSync(join(required('workflow/extract-document').dir, 'index.js'), join(copy, 'extract-document.js'));
    const { stdout } = await promisify(execFile)(NODE22, ['-e', `process.stdout.write(typeof require('./extract-document.js').handler)`], { cwd: copy, env: { ...probeEnv(), TABLE_NAME: 't', BUCKET_NAME: 'b' }, encoding: 'utf8' });
    expect(stdout).toBe('function');
  });
});

describe('API, authorizer and job bundles', () => {
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
    // A photo ID was made by no liveness check: the liveness detail of a document answers 404.
    expect(await call('GET', `${docPath}/liveness`)).toMatchObject({ status: 404, body: { message: 'No liveness check made this document' } });
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
    // Liveness: the server draws and stores a challenge; a burst without frames is refused by its schema.
    const challenge = await call('POST', `${link}/liveness/challenge`);
    expect(challenge.status).toBe(201);
    expect(challenge.body.data.steps.length).toBeGreaterThanOrEqual(2);
    expect((await call('POST', `${link}/liveness/frames`, { nonce: challenge.body.data.nonce })).status).toBe(422);
    // The Face Liveness completion (its bundle holds the Rekognition client): this flow's liveness is the service's own challenge.
    expect(await call('POST', `${link}/liveness/session/0f8fad5b-d9cb-469f-a165-70867728950e`, { document: { type: 6, country: 'GBR' } })).toMatchObject({
      status: 400,
      body: { message: "This flow's liveness check is the service's own challenge: send the frames to /liveness/frames" },
    });

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
    // FinishRun signs receipts; the state machine does not run here, so the approved verification has none.
    expect(await call('GET', `${base}/receipt`)).toMatchObject({ status: 404 });

    // A second verification, canceled: the other decisions answer 400 from the status they read.
    const other = (await call('POST', '/api/v1/default/verifications', body)).body.data;
    const otherPath = `/api/v1/default/verifications/${other.id}`;
    expect((await call('PUT', `${otherPath}/cancel`, action)).body.data.status_label).toBe('Canceled');
    for (const op of ['reject', 'resubmit']) expect([op, await call('PUT', `${otherPath}/${op}`, action).then((r) => [r.status, r.body.message])]).toEqual([op, [400, 'Verification is canceled']]);
    expect(await call('POST', `${otherPath}/screening/clear`, { list: 'un-sc', entry: '6908555', ...action })).toMatchObject({ status: 400, body: { message: 'Verification is canceled' } });

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
    expect((await call('GET', '/console/pdfjs/pdf.min.mjs')).text.length).toBeGreaterThan(100_000);
    // pdf.js is two copied files, not an npm install of the report's engines (sharp, x86_64).
    const pdfjs = required('widget/console-pdfjs').dir;
    expect(existsSync(join(pdfjs, 'node_modules'))).toBe(false);
    expect(readdirSync(join(pdfjs, 'files')).sort()).toEqual(['pdf.min.mjs', 'pdf.worker.min.mjs']);
    expect(folderSize(pdfjs).bytes).toBeLessThan(3_000_000);
    expect((await call('GET', '/console/pdfjs/pdf.worker.min.mjs')).text.length).toBeGreaterThan(1_000_000);
    expect(await call('GET', '/api/v1/me')).toMatchObject({ status: 200 });
    // The API reference: its page and Swagger UI, files beside its bundle.
    expect((await call('GET', '/docs')).text).toContain('docs/swagger-ui-bundle.js');
    expect((await call('GET', '/docs/swagger-ui-bundle.js')).text.length).toBeGreaterThan(1_000_000);

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
