/**
 * npm run bench: where the service stands against its performance budget (issue "Performance
 * budget"). Starts the local runtime itself, prints one table and writes bench/results.json.
 */
import './log-level';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { BatchWriteCommand, type BatchWriteCommandOutput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { buildSync } from 'esbuild';
import { monotonicFactory } from 'ulid';
import { type Runtime, startRuntime } from '../../local/runtime';
import { keys } from '../../src/adapters/dynamodb/keys';
import { verificationToItem } from '../../src/adapters/dynamodb/mappers';
import { sandboxPdf, sandboxPng } from '../../src/adapters/sandbox/test-images';
import { functionBundling, functionParts, MAIN_FIELDS } from '../../lib/bundling';
import { EXTRACTION_MODULES, OFFLINE_PARSERS } from '../../lib/workflow';
import { type BundlePart, dynamoMetrics, OPTIONAL_MODULES, type OptionalModule } from '../../src/clients';
import type { Verification } from '../../src/domain/entities';
import { buildExpectedData } from '../../src/domain/expected-data';
import { formatTimestamp } from '../../src/domain/time';

process.env.IDV_DYNAMODB_METRICS = 'true';
const ROOT = resolve(__dirname, '..', '..');
const TABLE = 'idv-local';

interface Figure {
  figure: string;
  value: number;
  unit: string;
  target: string;
  met: boolean;
}
const figures: Figure[] = [];
const add = (figure: string, value: number, unit: string, target: string, met: boolean) => {
  figures.push({ figure, value: Math.round(value * 100) / 100, unit, target, met });
};

let rt: Runtime;
async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${rt.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${rt.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

const action = { comment: 'bench', email: 'bench@example.com' };
const expected = {
  person: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-12-10' },
  address: { street: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'USA' },
  documents: { photo_id: { type: 'Passport', number: 'P123', country: 'GBR' }, proof_of_address: { type: 'Utility Bill', country: 'USA' } },
};
const photo = sandboxPng(64, 40, 1, { person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' }, document: { number: 'P123', expiration_date: '2031-01-01' } });
const bill = sandboxPdf({ person: { full_name: 'Ada Lovelace' }, address: { full: '1 Main St Austin TX 78701', country: 'USA' } });

async function verificationWithDocuments(): Promise<{ id: string; docs: string[] }> {
  const v = (await api('POST', '/api/v1/default/verifications', expected)).data.id as string;
  const a = await api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: photo.toString('base64') } });
  const b = await api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: bill.toString('base64') } });
  return { id: v, docs: [a.data.id, b.data.id] };
}

/** Requests one operation makes, with background processing held so only its own requests count. */
async function requestsOf(label: string, target: [number, number], fn: () => Promise<unknown>): Promise<void> {
  await rt.idle();
  rt.workflow.pause();
  rt.bus.pause();
  dynamoMetrics.reset();
  await fn();
  const n = dynamoMetrics.requests;
  const scans = dynamoMetrics.byCommand.ScanCommand ?? 0;
  await rt.workflow.resume();
  await rt.bus.resume();
  await rt.idle();
  const [min, max] = target;
  add(`DynamoDB requests: ${label}`, n, 'requests', min === max ? `${max}` : `${min}-${max}`, n >= min && n <= max && scans === 0);
}

/**
 * Operations that emit an event commit it with their write in a transactional outbox, and delete the
 * outbox row once the event is published: one request more than the operation itself (at-least-once
 * events without a second writer; dropping the cleanup would publish every event twice).
 */
const OUTBOX = ' (+1 outbox: its event row is deleted once published)';

async function perOperation(): Promise<{ id: string; docs: string[] }> {
  // Warm the flow cache and the authorizer cache, as a warm Lambda would have them.
  await api('GET', '/api/v1/default/configuration');
  await requestsOf('Create Verification', [1, 1], () => api('POST', '/api/v1/default/verifications', expected));
  const v1 = (await api('POST', '/api/v1/default/verifications', expected)).data.id as string;
  await requestsOf(`Create Document${OUTBOX}`, [1, 3], () =>
    api('POST', '/api/v1/default/documents', { verification: v1, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: photo.toString('base64') } }),
  );
  await api('POST', '/api/v1/default/documents', { verification: v1, document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: bill.toString('base64') } });
  await requestsOf('Submit', [1, 2], () => api('PUT', `/api/v1/default/verifications/${v1}/submit`));
  // The pipeline approved it meanwhile (matching sandbox documents).
  await requestsOf(`Reject${OUTBOX}`, [1, 3], () => api('PUT', `/api/v1/default/verifications/${v1}/reject`, action));
  await requestsOf(`Approve${OUTBOX}`, [1, 3], () => api('PUT', `/api/v1/default/verifications/${v1}/approve`, action));
  await requestsOf('Resubmit', [1, 2], () => api('PUT', `/api/v1/default/verifications/${v1}/resubmit`, action));
  await requestsOf(`Cancel${OUTBOX}`, [1, 3], () => api('PUT', `/api/v1/default/verifications/${v1}/cancel`, action));

  // A realistic verification: 2 documents, 5 history entries.
  const real = await verificationWithDocuments();
  await api('PUT', `/api/v1/default/verifications/${real.id}/submit`);
  await rt.idle();
  await api('PATCH', `/api/v1/default/verifications/${real.id}`, { status: 8, ...action });
  await api('PATCH', `/api/v1/default/verifications/${real.id}`, { status: 1, ...action });
  const history = (await api('GET', `/api/v1/default/verifications/${real.id}`)).data.history.length;
  await requestsOf(`Get Verification (${real.docs.length} documents, ${history} history entries)`, [1, 1], () => api('GET', `/api/v1/default/verifications/${real.id}`));
  await requestsOf('Get Document', [1, 2], () => api('GET', `/api/v1/default/documents/${real.docs[0]}`));
  await requestsOf('Update Verification', [1, 2], () => api('PATCH', `/api/v1/default/verifications/${real.id}`, { vendor_state: 'x' }));
  await requestsOf('List Verifications page 1', [1, 2], () => api('GET', '/api/v1/default/verifications'));
  const doomed = (await api('POST', '/api/v1/default/verifications', expected)).data.id as string;
  await requestsOf('Delete Verification', [1, 2], () => api('DELETE', `/api/v1/default/verifications/${doomed}`));
  return real;
}

async function listCost(): Promise<void> {
  const ulid = monotonicFactory();
  const start = Date.parse('2026-01-01T00:00:00Z');
  const items = Array.from({ length: 5000 }, (_, i) => {
    const at = formatTimestamp((start + i * 1000) * 1000);
    const v: Verification = {
      id: `ver_${ulid(start + i * 1000)}`,
      flow: 'photo-id',
      vendorReference: `load-${i}`,
      vendorState: null,
      expectedData: buildExpectedData({ person: { first_name: 'Load', last_name: `Test ${i}` } }),
      status: 1,
      submittedAt: null,
      createdAt: at,
      updatedAt: at,
      version: 1,
      run: 0,
      processedRun: 0,
      comments: [],
      expiresAt: '2999-01-01T00:00:00.000000Z',
    };
    return verificationToItem(v);
  });
  for (let i = 0; i < items.length; i += 25) {
    let pending: unknown[] | undefined = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending && pending.length > 0) {
      const out: BatchWriteCommandOutput = await rt.doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: pending as never } }));
      pending = out.UnprocessedItems?.[TABLE];
    }
  }
  for (const [key, index] of [
    [keys.flowCounter('photo-id'), keys.byFlow('photo-id', keys.COUNTER_SORT)],
    [keys.allCounter(), keys.all(keys.COUNTER_SORT)],
  ] as const) {
    const names = Object.keys(index);
    await rt.doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key,
        UpdateExpression: `ADD #total :n SET #entity = :e, ${names.map((k) => `#${k} = :${k}`).join(', ')}`,
        ExpressionAttributeNames: { '#total': 'total', '#entity': 'entity', ...Object.fromEntries(names.map((k) => [`#${k}`, k])) },
        ExpressionAttributeValues: { ':n': 5000, ':e': 'counter', ...Object.fromEntries(Object.entries(index).map(([k, v]) => [`:${k}`, v])) },
      }),
    );
  }
  await api('GET', '/api/v1/photo-id/configuration'); // a warm container has the flow cached
  const cost: Record<number, { requests: number; items: number; capacity: number }> = {};
  for (const page of [1, 10, 50, 200]) {
    dynamoMetrics.reset();
    const body = await api('GET', `/api/v1/photo-id/verifications?page=${page}`);
    if (body.data.length !== 15) throw new Error(`page ${page} returned ${body.data.length} items`);
    cost[page] = { requests: dynamoMetrics.requests, items: dynamoMetrics.itemsRead, capacity: dynamoMetrics.capacityUnits };
    add(`List page ${page} of 5,000: requests`, dynamoMetrics.requests, 'requests', page === 1 ? '<= 2' : `<= ${3 * cost[1]!.requests}`, page === 1 ? dynamoMetrics.requests <= 2 : dynamoMetrics.requests <= 3 * cost[1]!.requests);
    add(`List page ${page} of 5,000: items read`, dynamoMetrics.itemsRead, 'items', 'reported', true);
    add(`List page ${page} of 5,000: read capacity`, dynamoMetrics.capacityUnits, 'RCU', page === 1 ? 'reported' : `<= ${(3 * cost[1]!.capacity).toFixed(1)}`, page === 1 || dynamoMetrics.capacityUnits <= 3 * cost[1]!.capacity);
  }
}

/** Peak RSS (MB) of this process (the runtime) and of DynamoDB Local while `fn` runs. */
async function peakMemory<T>(fn: () => Promise<T>): Promise<{ result: T; node: number; dynamo: number }> {
  let node = 0;
  let dynamo = 0;
  const sample = () => {
    node = Math.max(node, process.memoryUsage.rss() / 1048576);
    try {
      const status = readFileSync(`/proc/${rt.dynamoPid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      dynamo = Math.max(dynamo, kb / 1024);
    } catch {
      // not on Linux: DynamoDB Local's memory is not reported
    }
  };
  const timer = setInterval(sample, 200);
  try {
    const result = await fn();
    sample();
    return { result, node, dynamo };
  } finally {
    clearInterval(timer);
  }
}

interface LoadOptions {
  url: string;
  method?: string;
  body?: string;
}

/** autocannon in its own process, so the load generator does not share the runtime's event loop. */
function autocannonRun(opts: LoadOptions, seconds = 20): Promise<{ latency: { p50: number; p90: number; p99: number }; requests: { average: number }; non2xx: number; errors: number }> {
  const args = ['-c', '10', '-d', String(seconds), '-j', '-H', `Authorization=Bearer ${rt.token}`, '-H', 'Content-Type=application/json'];
  if (opts.method) args.push('-m', opts.method);
  if (opts.body) args.push('-b', opts.body);
  args.push(opts.url);
  return new Promise((ok, fail) => {
    execFile(join(ROOT, 'node_modules', '.bin', 'autocannon'), args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) fail(error);
      else ok(JSON.parse(stdout));
    });
  });
}

/**
 * 20 s of load at 10 connections, after 5 s of the same load that is not counted: the figures are a
 * warm service's (a warm Lambda's code is compiled by V8, DynamoDB Local's by the JVM's JIT, whose
 * compiler threads otherwise share the two cores with the first seconds of the run).
 */
async function load(label: string, opts: LoadOptions, tailTarget?: number, rpsTarget?: number): Promise<void> {
  await autocannonRun(opts, 5);
  const before = { ...cpuSeconds(), at: performance.now() };
  const result = await autocannonRun(opts);
  const after = cpuSeconds();
  const seconds = (performance.now() - before.at) / 1000;
  const errors = result.non2xx + result.errors;
  const tail = result.latency.p99 / Math.max(1, result.latency.p50);
  add(`${label}: p50 latency`, result.latency.p50, 'ms', 'reported', true);
  // The shape of the tail: a smooth rise from p50 to p99 is queueing for the two cores; a jump is a stall.
  add(`${label}: p90 latency`, result.latency.p90, 'ms', 'reported', true);
  add(`${label}: p99 latency`, result.latency.p99, 'ms', tailTarget ? `<= ${tailTarget} x p50` : 'reported', tailTarget ? tail <= tailTarget : true);
  add(`${label}: throughput`, result.requests.average, 'req/s', rpsTarget ? `>= ${rpsTarget}` : 'reported', (rpsTarget ? result.requests.average >= rpsTarget : true) && errors === 0);
  if (errors > 0) add(`${label}: failed responses`, errors, 'responses', '0', false);
  // Where the two cores go: the runtime's Node process (front, handlers, SDK) and DynamoDB Local's JVM;
  // the rest is autocannon and the system.
  add(`${label}: CPU of the Node runtime`, Number(((after.node - before.node) / seconds).toFixed(2)), 'cores', 'reported', true);
  if (after.dynamo !== undefined && before.dynamo !== undefined) add(`${label}: CPU of DynamoDB Local`, Number(((after.dynamo - before.dynamo) / seconds).toFixed(2)), 'cores', 'reported', true);
}

/** CPU seconds used so far by this process and by DynamoDB Local (Linux: /proc; elsewhere the JVM's is not reported). */
function cpuSeconds(): { node: number; dynamo?: number } {
  const usage = process.cpuUsage();
  const node = (usage.user + usage.system) / 1e6;
  try {
    const fields = readFileSync(`/proc/${rt.dynamoPid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return { node, dynamo: (Number(fields[11]) + Number(fields[12])) / 100 };
  } catch {
    return { node };
  }
}

async function throughput(real: { id: string }): Promise<void> {
  // Requests are not counted under load: the counter asks DynamoDB for the consumed capacity of each
  // request, which a deployed function does not (about 0.3 ms of CPU per Get Verification on each side).
  dynamoMetrics.counting = false;
  const { node, dynamo } = await peakMemory(async () => {
    await load('Get Verification', { url: `${rt.url}/api/v1/default/verifications/${real.id}` }, 2, 300);
    await load('List page 1', { url: `${rt.url}/api/v1/default/verifications` });
    await load('Create Verification', { url: `${rt.url}/api/v1/photo-id/verifications`, method: 'POST', body: JSON.stringify({ person: { first_name: 'A', last_name: 'B' } }) });
  }).finally(() => {
    dynamoMetrics.counting = true;
  });
  add('Peak RSS during load: Node runtime', node, 'MB', 'reported', true);
  add('Peak RSS during load: DynamoDB Local', dynamo, 'MB', 'reported', true);
}

async function pipeline(): Promise<void> {
  const runs = await Promise.all(Array.from({ length: 20 }, () => verificationWithDocuments()));
  await rt.idle();
  for (const k of Object.keys(rt.workflow.taskTimes)) delete rt.workflow.taskTimes[k];
  const { result: durations, node, dynamo } = await peakMemory(() =>
    Promise.all(
      runs.map(async (v) => {
        await api('PUT', `/api/v1/default/verifications/${v.id}/submit`);
        const started = performance.now();
        for (;;) {
          const status = (await api('GET', `/api/v1/default/verifications/${v.id}`)).data.status_label;
          if (status !== 'Submitted') return { ms: performance.now() - started, status };
          await new Promise((r) => setTimeout(r, 20));
        }
      }),
    ),
  );
  await rt.idle();
  const sorted = durations.map((d) => d.ms).sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  add('Pipeline Submit → final status, 20 × 2 documents: p50', pct(50), 'ms', 'reported', true);
  add('Pipeline Submit → final status, 20 × 2 documents: p95', pct(95), 'ms', '<= 5000', pct(95) <= 5000);
  add('Pipeline outcomes Approved', durations.filter((d) => d.status === 'Approved').length, 'of 20', '20', durations.every((d) => d.status === 'Approved'));
  const mean = (state: string) => {
    const t = rt.workflow.taskTimes[state] ?? [];
    return t.reduce((a, b) => a + b, 0) / Math.max(1, t.length);
  };
  add('Pipeline per document: extraction (ExtractDocument)', mean('ExtractDocument'), 'ms', 'reported', true);
  add('Pipeline per document: validation (EvaluateDocument)', mean('EvaluateDocument'), 'ms', 'reported', true);
  add('Pipeline per run: state writes (StartRun + FinishRun)', mean('StartRun') + mean('FinishRun'), 'ms', 'reported', true);
  add('Peak RSS during pipeline: Node runtime', node, 'MB', 'reported', true);
  add('Peak RSS during pipeline: DynamoDB Local', dynamo, 'MB', 'reported', true);
}

function entries(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? entries(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/**
 * The builds of a function, each with the optional modules it loads (mirrors lib/). The extraction
 * functions are built as each extractor's stack deploys them (lib/workflow.ts extractionFunctionProps):
 * a Textract stack's with the Textract and Rekognition clients and no offline extractor, an offline
 * stack's with the offline extractor and its MRZ parser (its engines are node_modules beside the bundle).
 */
function builds(file: string): { label: string; loads: OptionalModule[]; floor?: string[] }[] {
  if (file.endsWith('api/download-document-pdf.ts')) return [{ label: '', loads: ['pdf-lib'] }];
  if (file.endsWith('workflow/extract-document.ts') || file.endsWith('events/pre-extract.ts')) {
    return [
      { label: ' (textract)', loads: [...EXTRACTION_MODULES] },
      { label: ' (offline)', loads: [...OFFLINE_PARSERS], floor: ['the offline reader'] },
    ];
  }
  return [{ label: '', loads: [] }];
}

const importOnce = (bundle: string) =>
  Number(execFileSync(process.execPath, ['-e', `const t=performance.now();require(${JSON.stringify(bundle)});process.stdout.write(String(performance.now()-t))`], { env: { PATH: process.env.PATH ?? '' } }));

/**
 * Import times of a function's bundle and of its floors, each in a fresh Node process, alternated so
 * that all meet the same machine load, 15 times each: the fastest of each is the figure (the cost of
 * the code itself; slower runs measure what else the machine was doing).
 */
function importMs(bundle: string, floors: string[]): { ms: number; floorMs: number[] } {
  let ms = Infinity;
  const floorMs = floors.map(() => Infinity);
  for (let i = 0; i < 15; i++) {
    floors.forEach((floor, f) => (floorMs[f] = Math.min(floorMs[f]!, importOnce(floor))));
    ms = Math.min(ms, importOnce(bundle));
  }
  return { ms, floorMs };
}

/** What a floor bundle imports to hold each SDK part, and each optional module a function loads. */
const FLOOR_IMPORTS: Partial<Record<BundlePart | OptionalModule | 'the OpenAPI document' | 'the offline reader' | 'the logger' | 'the HTTP runtime', string>> = {
  dynamodb: "import { DynamoDBClient } from '@aws-sdk/client-dynamodb'; import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'; used.push(DynamoDBClient, DynamoDBDocumentClient);",
  s3: "import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3'; import { getSignedUrl } from '@aws-sdk/s3-request-presigner'; used.push(S3Client, GetObjectCommand, getSignedUrl);",
  sfn: "import { SFNClient } from '@aws-sdk/client-sfn'; used.push(SFNClient);",
  eventbridge: "import { EventBridgeClient } from '@aws-sdk/client-eventbridge'; used.push(EventBridgeClient);",
  sqs: "import { SQSClient } from '@aws-sdk/client-sqs'; used.push(SQSClient);",
  secrets: "import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager'; used.push(SecretsManagerClient);",
  // With the commands the extractor sends: a Textract or Rekognition function sends nothing else.
  '@aws-sdk/client-textract': "import { AnalyzeDocumentCommand, AnalyzeIDCommand, TextractClient } from '@aws-sdk/client-textract'; used.push(TextractClient, AnalyzeDocumentCommand, AnalyzeIDCommand);",
  '@aws-sdk/client-rekognition': "import { CompareFacesCommand, RekognitionClient } from '@aws-sdk/client-rekognition'; used.push(RekognitionClient, CompareFacesCommand);",
  'pdf-lib': "import { PDFDocument } from 'pdf-lib'; used.push(PDFDocument);",
  // The offline extractor's one bundled package (it parses the MRZ the OCR engine reads).
  mrz: "import { parse } from 'mrz'; used.push(parse);",
  // In an offline stack the function reads documents itself: the reader (OCR lines to fields: MRZ,
  // printed zone, address, barcode, face signals) and the glue that loads its engines do what
  // Textract's service and client do in the other, so they stand where the Textract client stands:
  // src/adapters/offline/* and the packages it bundles (mrz, fastest-levenshtein), not the domain
  // modules it shares with the rest of the function. The engines themselves (onnxruntime, sharp, tesseract, zxing, tfjs: node_modules beside the
  // bundle) are in neither. Printed as a figure of its own, so the reader's weight stays visible.
  'the offline reader': `import { OfflineExtractor } from ${JSON.stringify(join(ROOT, 'src', 'adapters', 'offline', 'extractor'))}; import * as engines from ${JSON.stringify(join(ROOT, 'src', 'adapters', 'offline', 'engines'))}; used.push(OfflineExtractor, engines);`,
  'the OpenAPI document': `import document from ${JSON.stringify(join(ROOT, 'openapi', 'openapi.json'))}; used.push(document);`,
  metrics: "import { Metrics } from '@aws-lambda-powertools/metrics'; used.push(Metrics);",
  // What a function loads whatever it does, as issue 13 item 4 asks: Powertools Logger (the guide's
  // logging library) and, in an HTTP function, its injectLambdaContext (cold_start and the request id
  // on every line) in middy, which runs it. Import-time floors only (the bundle floor stays the SDK clients').
  'the logger': "import { Logger } from '@aws-lambda-powertools/logger'; used.push(new Logger());",
  'the HTTP runtime': "import { Logger } from '@aws-lambda-powertools/logger'; import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware'; import middy from '@middy/core'; const logger = new Logger(); used.push(middy(async () => 0).use(injectLambdaContext(logger)));",
};

/** Data a function serves as its job, counted in its floor like a client: the contract (190 KB of JSON). */
const FLOOR_DATA: Record<string, string[]> = { 'api/get-openapi': ['the OpenAPI document'] };

/**
 * Each function's bundle, built as the stack builds it (lib/bundling.ts), against its own floor: a
 * bundle holding nothing but the SDK clients (and optional modules) that function's ports reach.
 * Targets: bundle <= floor + 120 KB, import time <= 1.3 x the floor's.
 */
function bundles(): void {
  const out = mkdtempSync(join(tmpdir(), 'idv-bundles-'));
  const build = (entry: string, outfile: string, external: string[], options: { define?: Record<string, string>; mainFields?: string[] } = {}) =>
    buildSync({ entryPoints: [entry], outfile, bundle: true, minify: true, metafile: true, platform: 'node', target: 'node22', format: 'cjs', external, logLevel: 'error', mainFields: MAIN_FIELDS, nodePaths: [join(ROOT, 'node_modules')], ...options });
  const floors = new Map<string, { kb: number; file: string }>();
  const floorOf = (parts: string[]) => {
    const key = parts.join('+') || 'none';
    let floor = floors.get(key);
    if (!floor) {
      const entry = join(out, `floor-${key.replace(/[^a-z0-9+]/gi, '_')}.ts`);
      writeFileSync(entry, `const used: unknown[] = [];\n${parts.map((p) => FLOOR_IMPORTS[p as keyof typeof FLOOR_IMPORTS] ?? '').join('\n')}\nexport const handler = async () => used.length;\n`);
      build(entry, `${entry}.js`, []);
      floor = { kb: statSync(`${entry}.js`).size / 1024, file: `${entry}.js` };
      if (parts.includes('the offline reader')) {
        // Its size counts the reader's own code only: the domain modules it shares with the rest of
        // the function count against the function (the import time is the whole, runnable floor's).
        build(entry, `${entry}.own.js`, ['../../domain/*', '../../ports/*']);
        floor.kb = statSync(`${entry}.own.js`).size / 1024;
      }
      floors.set(key, floor);
      add(`Floor ${key}: bundle`, floor.kb, 'KB', 'reference', true);
    }
    return { key, ...floor };
  };
  // `--only a,b`: just the functions named (e.g. `--only workflow/extract-document,api/create-document`).
  const only = process.argv.includes('--only') ? (process.argv[process.argv.indexOf('--only') + 1] ?? '').split(',') : undefined;
  for (const file of entries(join(ROOT, 'functions'))) {
    const name = relative(join(ROOT, 'functions'), file).replace(/\.ts$/, '');
    if (only && !only.includes(name)) continue;
    for (const { label, loads, floor: extra = [] } of builds(file)) {
      const outfile = join(out, `${name.replace(/\//g, '__')}${label.replace(/\W/g, '_')}.js`);
      const { metafile } = build(file, outfile, OPTIONAL_MODULES.filter((m) => !loads.includes(m)), functionBundling(name, loads));
      const holds = (pkg: string) => Object.values(metafile?.outputs ?? {}).some((o) => Object.entries(o.inputs).some(([path, i]) => path.includes(`node_modules/${pkg}/`) && i.bytesInOutput > 0));
      const parts = [...functionParts(name).filter((p) => FLOOR_IMPORTS[p]), ...loads, ...extra, ...(FLOOR_DATA[name] ?? [])];
      const floor = floorOf(parts);
      if (extra.length > 0 && !figures.some((f) => f.figure.startsWith(`Floor ${floor.key}: of which`))) {
        const without = floorOf([...functionParts(name).filter((p) => FLOOR_IMPORTS[p]), ...loads, ...(FLOOR_DATA[name] ?? [])]);
        add(`Floor ${floor.key}: of which ${extra.join(', ')}`, floor.kb - without.kb, 'KB', 'reference', true);
      }
      const kb = statSync(outfile).size / 1024;
      add(`Bundle ${name}${label} (floor ${floor.key})`, kb, 'KB', `<= ${(floor.kb + 120).toFixed(0)}`, kb <= floor.kb + 120);
      // Import time against the SDK floor and the runtime the function's bundle holds (see 'the HTTP
      // runtime' and 'the logger'), with the ratio to the SDK floor alone printed beside it.
      const runtime = holds('@middy/core') ? 'the HTTP runtime' : holds('@aws-lambda-powertools/logger') ? 'the logger' : undefined;
      const withRuntime = floorOf([...parts, ...(runtime ? [runtime] : [])]);
      const { ms, floorMs: [sdkMs = 0, runtimeMs = 0] } = importMs(outfile, [floor.file, withRuntime.file]);
      add(
        `Import time ${name}${label} (floor ${runtimeMs.toFixed(1)} ms: SDK ${sdkMs.toFixed(1)} ms + ${runtime ?? 'no runtime'}; ${(ms / sdkMs).toFixed(2)}x the SDK floor)`,
        ms,
        'ms',
        `<= ${(1.3 * runtimeMs).toFixed(1)}`,
        ms <= 1.3 * runtimeMs,
      );
    }
  }
  rmSync(out, { recursive: true, force: true });
}

function print(): void {
  const rows = figures.map((f) => [f.figure, `${f.value}`, f.unit, f.target, f.met ? 'yes' : 'NO']);
  const head = ['figure', 'value', 'unit', 'target', 'met'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => (i === 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  const missed = figures.filter((f) => !f.met).length;
  console.log(`\n${figures.length - missed} met, ${missed} missed`);
}

async function serverFigures(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-'));
  rt = await startRuntime({ host: '127.0.0.1', port: 0, dataDir, inMemory: true, extractor: 'sandbox', log: () => {} });
  try {
    const real = await perOperation();
    await listCost();
    await throughput(real);
    await pipeline();
  } finally {
    await rt.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  // `npm run bench -- --bundles`: the bundle figures alone (no local servers).
  const bundlesOnly = process.argv.includes('--bundles');
  // `npm run bench -- --bundles --only <function>,…`: those bundles, printed, results.json left as it is.
  if (bundlesOnly && process.argv.includes('--only')) {
    bundles();
    print();
    return;
  }
  // `npm run bench -- --server`: the server figures alone, printed, results.json left as it is.
  if (process.argv.includes('--server')) {
    await serverFigures();
    print();
    return;
  }
  if (bundlesOnly) {
    // The server figures of the last full run are kept.
    const last = JSON.parse(readFileSync(join(ROOT, 'bench', 'results.json'), 'utf8')) as Figure[];
    figures.push(...last.filter((f) => !/^(Bundle|Import time|Floor)\b/.test(f.figure)));
  } else await serverFigures();
  bundles();
  mkdirSync(join(ROOT, 'bench'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify(figures, null, 2)}\n`);
  print();
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s; written to bench/results.json)`);
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${(error as Error).stack ?? error}`);
  process.exit(1);
});
