import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { folderSize, synthOfflineAssets } from '../../scripts/offline-assets';
import { copyWithProbe, NODE22, probeCases, probeEnv } from '../../scripts/offline-trace';
import { expectedData, generateDocument } from '../../scripts/documents/generate';
import { client, startTestRuntime } from '../integration/harness';
import { LOCAL_BUCKET, LOCAL_TABLE } from '../../local/runtime';

/**
 * Issue 14: the offline extraction functions' assets, synthesized for real (esbuild, npm ci of the
 * engine packages, the prune to the keep list), fit Lambda's 250 MB with margin and extract from the
 * synthesized folder itself: copied outside the repository (so that nothing resolves from its
 * node_modules) and run by plain Node 22. Takes about 3 minutes (npm ci twice from the registry).
 */
const LAMBDA_UNZIPPED_LIMIT = 250 * 1024 * 1024;
/** Asserted bound: the limit less 50 MB, room for the engines' next versions. */
const BOUND = 200 * 1000 * 1000;

let outdir: string;
let assets: ReturnType<typeof synthOfflineAssets>;
let copy: string;

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'idv-offline-synth-'));
  assets = synthOfflineAssets(outdir);
  copy = copyWithProbe(assets.PreExtract);
  // Nothing above the copy has a node_modules that Node's resolution could fall back to.
  for (let dir = copy; dir !== dirname(dir); dir = dirname(dir)) expect([dir, existsSync(join(dirname(dir), 'node_modules'))]).toEqual([dir, false]);
}, 600_000);

afterAll(() => {
  for (const dir of [outdir, copy]) if (dir) rmSync(dir, { recursive: true, force: true });
});

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

describe('offline extraction assets (synthesized with bundling)', () => {
  it('fit Lambda\'s 250 MB unzipped with 50 MB to spare, with no source maps and no other platform\'s binaries', () => {
    for (const dir of Object.values(assets)) {
      const { bytes, files } = folderSize(dir);
      expect(bytes).toBeLessThan(BOUND);
      expect(bytes).toBeLessThan(LAMBDA_UNZIPPED_LIMIT);
      expect(files).toBeLessThan(1000);
      const names = listing(dir);
      expect(names.filter((f) => f.endsWith('.map'))).toEqual([]);
      expect(names.filter((f) => /darwin|win32|arm64|musl/.test(f))).toEqual([]);
      // One native build of each engine: onnxruntime, and sharp for Lambda's Linux x86_64.
      expect(names.filter((f) => f.endsWith('.node')).every((f) => /linux[-/]x64/.test(f))).toBe(true);
    }
    expect(listing(assets.ExtractDocument)).toEqual(listing(assets.PreExtract));
  });

  it('runs the PreExtract bundle from a copy of its asset in plain Node 22: a generated passport\'s MRZ read into the extraction cache', async () => {
    const h = await startTestRuntime({ extractor: 'sandbox' });
    try {
      const api = client(h.runtime);
      const passport = await generateDocument('passport', 'photographed', 11);
      const bill = await generateDocument('utility-bill', 'clean', 12, undefined, passport.identity);
      const created = await api('POST', '/api/v1/default/verifications', { vendor_reference: 'asset-1', ...expectedData(passport, bill) });
      expect(created.status).toBe(201);
      const verificationId = created.body.data.id as string;
      const upload = await api('POST', '/api/v1/default/documents', {
        verification: verificationId,
        document: { context_type: 'PHOTO_ID', type: 1, country: passport.country, front_side_data: passport.front.toString('base64') },
      });
      expect(upload.status).toBe(201);
      const documentId = upload.body.data.id as string;
      // The local runtime's own (sandbox) PreExtract has run; the asset's offline one replaces its cache entry.
      await h.runtime.idle();

      const event = { detail: { id: 'evt_1', type: 'DocumentUploaded', created_at: '', flow: 'default', data: { verification_id: verificationId, document: { id: documentId } } } };
      const script = `require('./index.js').handler(${JSON.stringify(event)}).then((r) => { process.stdout.write(JSON.stringify(r)); process.exit(0); }, (e) => { console.error(e); process.exit(1); });`;
      const { dynamodb, s3 } = h.runtime.endpoints;
      const env = {
        ...probeEnv(),
        TABLE_NAME: LOCAL_TABLE,
        BUCKET_NAME: LOCAL_BUCKET,
        EXTRACTOR: 'offline',
        EXTRACTORS: 'offline',
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: h.runtime.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: h.runtime.credentials.secretAccessKey,
        DYNAMODB_ENDPOINT: dynamodb,
        S3_ENDPOINT: s3,
        POWERTOOLS_LOG_LEVEL: 'WARN',
      };
      // Not execFileSync: the local S3 server answers from this process.
      const { stdout } = await promisify(execFile)(NODE22, ['-e', script], { cwd: copy, env, encoding: 'utf8', timeout: 240_000, maxBuffer: 1 << 24 });
      expect(JSON.parse(stdout)).toEqual({ cached: true });

      const item = (await h.runtime.doc.send(new GetCommand({ TableName: LOCAL_TABLE, Key: { PK: `XTR#${documentId}`, SK: 'XTR' } }))).Item;
      const p = passport.identity;
      expect(item?.data.person).toMatchObject({ surname: p.surname, given_names: p.givenNames, date_of_birth: p.dateOfBirth });
      expect(item?.data.document).toMatchObject({ number: p.documentNumber, expiration_date: p.expirationDate, country_code: passport.country });
    } finally {
      await h.stop();
    }
  }, 300_000);

  it('loads every other engine from the same copy: licence barcode, PDF text layer, selfie comparison and the tesseract fallback', async () => {
    const { cases, truth } = await probeCases(copy, ['licence', 'bill-pdf', 'selfie']);
    writeFileSync(join(copy, 'cases.json'), JSON.stringify(cases));
    const out = execFileSync(NODE22, ['probe.js', 'cases.json', '--warm'], { cwd: copy, env: probeEnv(), encoding: 'utf8', timeout: 240_000, maxBuffer: 1 << 24 });
    const results = Object.fromEntries(out.trim().split('\n').map((l) => JSON.parse(l) as { name: string; data: any }).map((r) => [r.name, r.data]));
    const licence = truth.licence?.identity;
    expect(results.licence.document.number).toBe(licence?.documentNumber);
    expect(results.licence.person.surname).toBe(licence?.surname);
    const bill = truth['bill-pdf']?.identity;
    expect(results['bill-pdf'].address).toMatchObject({ street: bill?.street, zip: bill?.place.zip });
    expect(results.selfie.document.identified).toBe('true');
    expect(Number(results.selfie.document.selfie_comparison)).toBeGreaterThan(50);
  }, 300_000);

  it('loads the ExtractDocument bundle from its asset\'s code beside the same node_modules', () => {
    copyFileSync(join(assets.ExtractDocument, 'index.js'), join(copy, 'extract-document.js'));
    const out = execFileSync(NODE22, ['-e', `process.stdout.write(typeof require('./extract-document.js').handler)`], { cwd: copy, env: { ...probeEnv(), TABLE_NAME: 't', BUCKET_NAME: 'b' }, encoding: 'utf8' });
    expect(out).toBe('function');
  });
});
