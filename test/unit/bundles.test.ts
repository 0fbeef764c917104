import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync, type Metafile } from 'esbuild';
import { functionBundling } from '../../lib/bundling';
import { EXTRACTION_MODULES, extractionFunctionProps, OFFLINE_PARSERS } from '../../lib/workflow';
import { OPTIONAL_MODULES, type OptionalModule } from '../../src/clients';

const ROOT = join(__dirname, '..', '..');
let out: string;
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'idv-bundle-test-'));
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

/**
 * A function bundled as the stack bundles it (lib/service-function.ts), with the optional modules it
 * loads: its file and which packages (or project files) it holds code of.
 */
function bundle(file: string, loads: OptionalModule[] = []): { outfile: string; packages: Set<string> } {
  const outfile = join(out, `${file.replace(/\//g, '__')}${loads.map((m) => `-${m.replace(/\W/g, '_')}`).join('')}.js`);
  const result = buildSync({
    entryPoints: [join(ROOT, 'functions', `${file}.ts`)],
    outfile,
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    external: OPTIONAL_MODULES.filter((m) => !loads.includes(m)),
    logLevel: 'error',
    metafile: true,
    ...functionBundling(file, loads),
  });
  const inputs = Object.values((result.metafile as Metafile).outputs)[0]?.inputs ?? {};
  const packages = new Set(
    Object.entries(inputs)
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([path]) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path),
  );
  return { outfile, packages };
}

describe('each function bundles only the SDK clients its ports reach', () => {
  it('leaves S3, Step Functions, EventBridge, SQS and Secrets Manager out of /health (table only)', () => {
    const { packages } = bundle('api/health');
    expect(packages.has('@aws-sdk/client-dynamodb')).toBe(true);
    for (const absent of ['@aws-sdk/client-s3', '@aws-sdk/client-sfn', '@aws-sdk/client-eventbridge', '@aws-sdk/client-sqs', '@aws-sdk/client-secrets-manager']) expect([absent, packages.has(absent)]).toEqual([absent, false]);
    // Repositories of ports it does not name are left out one by one.
    expect(packages.has('src/adapters/dynamodb/webhook-repository.ts')).toBe(false);
  });

  it('keeps what Submit names: table, images, workflow, events and the session secret', () => {
    const { packages } = bundle('api/submit-verification');
    for (const present of ['@aws-sdk/client-dynamodb', '@aws-sdk/client-s3', '@aws-sdk/client-sfn', '@aws-sdk/client-eventbridge', '@aws-sdk/client-secrets-manager']) expect([present, packages.has(present)]).toEqual([present, true]);
    expect(packages.has('@aws-sdk/client-sqs')).toBe(false);
  });

  it('holds no SDK client at all in a function without ports (widget assets), and no QR code library outside the QR function', () => {
    const asset = bundle('widget/asset').packages;
    expect([...asset].filter((p) => p.startsWith('@aws-sdk/') || p.startsWith('@smithy/'))).toEqual([]);
    expect(bundle('widget/get-session').packages.has('qrcode')).toBe(false);
    expect(bundle('widget/qr').packages.has('qrcode')).toBe(true);
  });

  it('leaves the widget\'s scripts and texts out of the bundles that serve them (files beside the bundle, read on first use)', () => {
    const asset = bundle('widget/asset').packages;
    for (const module of ['src/web/widget-script.ts', 'src/web/console.ts', 'src/web/asset-texts.ts']) expect([module, asset.has(module)]).toEqual([module, false]);
    const page = bundle('widget/page').packages;
    expect([...page].filter((p) => p.includes('src/web/locales/'))).toEqual([]);
  });

  it('leaves Swagger UI and the docs script out of the API reference\'s bundle (files beside it), with no SDK client', () => {
    for (const file of ['docs/reference']) {
      const { outfile, packages } = bundle(file);
      expect([file, [...packages].filter((p) => p.startsWith('@aws-sdk/') || p.startsWith('@smithy/') || p === 'swagger-ui-dist' || p.startsWith('src/web/docs-script'))]).toEqual([file, []]);
      // The floor: a ports-free HTTP function (middy, the logger, the handler), as widget/asset's 68 KB.
      expect([file, readFileSync(outfile).length < 100 * 1024]).toEqual([file, true]);
    }
  });

  it('leaves out of the widget upload what it never runs: the flows file\'s schema, the rule thresholds, the benchmark\'s request counter', () => {
    const { outfile, packages } = bundle('widget/upload-document');
    const text = readFileSync(outfile, 'utf8');
    // Only the stack and the local runtime validate config/flows.json.
    expect(text).not.toContain('lower-case letters, digits and dashes');
    expect(text).not.toContain('idvRequestCounter');
    for (const absent of ['src/domain/rule-thresholds.ts', 'config/rules.json']) expect([absent, packages.has(absent)]).toEqual([absent, false]);
    // A function that judges extractions (the widget's upload-time reading) keeps its thresholds.
    expect(bundle('widget/get-session').packages.has('src/domain/rule-thresholds.ts')).toBe(true);
  });

  it('carries Powertools Metrics only where a counted event happens, never in a read-only API function', () => {
    const METRICS = '@aws-lambda-powertools/metrics';
    for (const file of ['api/create-verification', 'workflow/finish-run', 'workflow/extract-document', 'events/pre-extract', 'events/deliver-webhook', 'jobs/publish-outbox', 'jobs/sweep-runs']) {
      expect([file, bundle(file).packages.has(METRICS)]).toEqual([file, true]);
    }
    for (const file of ['api/get-verification', 'api/list-verifications', 'api/health', 'api/get-document', 'widget/get-session', 'authorizer']) {
      expect([file, bundle(file).packages.has(METRICS)]).toEqual([file, false]);
    }
  });

  it('leaves out of the PDF report the face and OCR engines beside the loaders it uses, and the local worker renderer', () => {
    const { packages } = bundle('api/download-document-pdf', ['pdf-lib']);
    expect(packages.has('src/adapters/pdf/report-renderer.ts')).toBe(true);
    for (const absent of ['src/adapters/offline/face-engines.ts', 'src/adapters/pdf/worker-renderer.ts']) expect([absent, packages.has(absent)]).toEqual([absent, false]);
  });

  it('carries the ULID generator (its own, not the ulid package) only where an id is minted', () => {
    const minting = (file: string) => {
      const { outfile, packages } = bundle(file);
      expect([file, packages.has('ulid')]).toEqual([file, false]);
      return readFileSync(outfile, 'utf8').includes('0123456789ABCDEFGHJKMNPQRSTVWXYZ');
    };
    for (const file of ['api/create-document', 'api/create-verification']) expect([file, minting(file)]).toEqual([file, true]);
    for (const file of ['api/download-document-pdf', 'api/get-verification', 'workflow/extract-document']) expect([file, minting(file)]).toEqual([file, false]);
  });

  it('carries the schemas of config/flows.json and config/rules.json only where they are read', () => {
    const text = (file: string) => readFileSync(bundle(file).outfile, 'utf8');
    const FLOWS_FILE = 'white text on it must reach a contrast of 4.5:1';
    const THRESHOLDS = 'min_face_pixels';
    for (const file of ['api/download-document-pdf', 'api/create-document', 'workflow/extract-document']) {
      const t = text(file);
      expect([file, t.includes(FLOWS_FILE), t.includes(THRESHOLDS)]).toEqual([file, false, false]);
    }
    expect(text('workflow/evaluate-document').includes(THRESHOLDS)).toBe(true);
  });

  it('inflates the country table on first use, not on import (a function without SDK clients never loads zlib)', () => {
    for (const file of ['api/get-caller', 'widget/asset']) {
      const { outfile } = bundle(file);
      const script = `const before = new Set(process.moduleLoadList); require(${JSON.stringify(outfile)}); process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m))));`;
      const loaded = JSON.parse(execFileSync(process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8', timeout: 30_000 })) as string[];
      expect([file, loaded.filter((m) => /zlib/.test(m))]).toEqual([file, []]);
    }
  });

  it('runs from the bundle: /health builds its DynamoDB client and answers 503 when the table cannot be reached', () => {
    const { outfile } = bundle('api/health');
    const script = `require(${JSON.stringify(outfile)}).handler({ httpMethod: 'GET', path: '/health', resource: '/health', headers: {}, requestContext: { requestId: 'r1' } }, { awsRequestId: 'r1', functionName: 'health', getRemainingTimeInMillis: () => 5000 })
      .then((r) => process.stdout.write(JSON.stringify(r)), (e) => { process.stdout.write(JSON.stringify({ crashed: String(e) })); });`;
    const env = { PATH: process.env.PATH ?? '', TABLE_NAME: 't', BUCKET_NAME: 'b', AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'y', DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', POWERTOOLS_LOG_LEVEL: 'SILENT' };
    const res = JSON.parse(execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8', timeout: 30_000 })) as { statusCode?: number; body?: string; crashed?: string };
    expect(res.crashed).toBeUndefined();
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body ?? '{}')).toMatchObject({ dependencies: { dynamodb: 'unavailable' } });
  });
});

describe('an extraction function bundles only the extractors its stack chose', () => {
  const TEXTRACT: OptionalModule[] = [...EXTRACTION_MODULES];
  const OFFLINE: OptionalModule[] = [...OFFLINE_PARSERS];
  const holds = (packages: Set<string>, folder: string) => [...packages].filter((p) => p.startsWith(folder));

  it("leaves the offline extractor's code out of a Textract stack's, and Textract's out of an offline stack's", () => {
    for (const file of ['workflow/extract-document', 'events/pre-extract']) {
      const textract = bundle(file, TEXTRACT).packages;
      expect([file, holds(textract, 'src/adapters/offline/'), textract.has('mrz')]).toEqual([file, [], false]);
      expect(textract.has('src/adapters/textract/extractor.ts')).toBe(true);
      const offline = bundle(file, OFFLINE).packages;
      expect([file, holds(offline, 'src/adapters/textract/'), holds(offline, '@aws-sdk/client-textract'), holds(offline, '@aws-sdk/client-rekognition')]).toEqual([file, [], [], []]);
      expect(offline.has('src/adapters/offline/extractor.ts')).toBe(true);
    }
    // The offline reader checks a stored PDF before pdf.js opens it, and needs no image check for that.
    expect(readFileSync(bundle('events/pre-extract', OFFLINE).outfile, 'utf8').includes('its PNG signature is wrong')).toBe(false);
  });

  it('is told (EXTRACTORS) exactly the extractors it is bundled with, from the one plan the stack makes', () => {
    for (const plan of [{ aws: true, offline: false }, { aws: false, offline: true }, { aws: true, offline: true }, { aws: false, offline: false }]) {
      const props = extractionFunctionProps({ extractor: 'aws', ...plan }, {});
      const define = functionBundling('workflow/extract-document', props.loads ?? []).define;
      const bundled = [!define['process.env.IDV_LOADS_TEXTRACT'] && 'aws', !define['process.env.IDV_LOADS_OFFLINE'] && 'offline'].filter(Boolean).join(',');
      expect([plan, props.environment.EXTRACTORS]).toEqual([plan, bundled]);
    }
  });

  /** Runs PreExtract's bundle once with these settings: what its handler answered or threw. */
  function preExtract(loads: OptionalModule[], settings: Record<string, string>): string {
    const { outfile } = bundle('events/pre-extract', loads);
    const script = `require(${JSON.stringify(outfile)}).handler({ detail: { id: 'e1', type: 'DocumentUploaded', created_at: '2026-01-01T00:00:00Z', flow: 'f', data: {} } })
      .then((r) => process.stdout.write('answered ' + JSON.stringify(r)), (e) => process.stdout.write('threw ' + String(e && e.message)));`;
    const env = { PATH: process.env.PATH ?? '', TABLE_NAME: 't', BUCKET_NAME: 'b', AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'y', DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', POWERTOOLS_LOG_LEVEL: 'SILENT', ...settings };
    return execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8', timeout: 30_000 });
  }

  it('fails on the cold start, naming the extractor, when its settings name one its bundle left out', () => {
    expect(preExtract(TEXTRACT, { EXTRACTOR: 'aws', EXTRACTORS: 'aws,offline' })).toMatch(/^threw EXTRACTOR\/EXTRACTORS name an extractor this function's bundle leaves out \(offline\)/);
    expect(preExtract(OFFLINE, { EXTRACTOR: 'aws', EXTRACTORS: 'offline' })).toMatch(/leaves out \(aws\)/);
    // Its own extractors pass the check (an event without a document is then answered without extracting).
    expect(preExtract(TEXTRACT, { EXTRACTOR: 'aws', EXTRACTORS: 'aws' })).toBe('answered {"cached":false}');
    expect(preExtract(OFFLINE, { EXTRACTOR: 'offline', EXTRACTORS: 'offline' })).toBe('answered {"cached":false}');
    expect(preExtract(OFFLINE, { EXTRACTOR: 'sandbox', EXTRACTORS: 'offline' })).toBe('answered {"cached":false}');
  });
});
