import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { generatedTexts } from '../../lib/served-files';
import { constructName, ServiceFunction } from '../../lib/service-function';
import { LambdaHost } from '../../scripts/lambda-host';
import { NODE22 } from '../../scripts/offline-trace';
import { functionNeeds } from '../../src/http/routes';

/**
 * The functions that serve files as they are (the widget's and the console's scripts and
 * stylesheets, the widget's texts, pdf.js), synthesized with real bundling (esbuild and the
 * afterBundling copy of lib/service-function.ts) and run from their asset folders in plain Node 22:
 * what is served is what deploys. ~20 s.
 */
const ROOT = join(__dirname, '..', '..');
const SERVING = ['widget/asset', 'widget/console-pdfjs', 'widget/page'];
let outdir: string;
/** Answers the page function's Secrets Manager read (the session secret; no other AWS call happens here). */
let secrets: Server;
let secretsUrl: string;
const dirs = new Map<string, string>();
const hosts = new Map<string, LambdaHost>();

beforeAll(async () => {
  secrets = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.1' }).end(JSON.stringify({ Name: 'idv-session', SecretString: 's'.repeat(48) })));
  await new Promise<void>((ok) => secrets.listen(0, '127.0.0.1', ok));
  secretsUrl = `http://127.0.0.1:${(secrets.address() as AddressInfo).port}`;
  outdir = mkdtempSync(join(tmpdir(), 'idv-served-files-synth-'));
  const app = new App({ outdir });
  const stack = new Stack(app, 'ServedFilesTest', { env: { account: '123456789012', region: 'eu-west-1' } });
  const fns = SERVING.map((file) => new ServiceFunction(stack, constructName(file), { file, environment: {}, files: functionNeeds(file).files }));
  const template = app.synth().getStackByName(stack.stackName).template as { Resources: Record<string, { Properties?: any }> };
  for (const fn of fns) {
    const key = String(template.Resources[stack.getLogicalId(fn.node.defaultChild as CfnElement)]?.Properties.Code.S3Key);
    dirs.set(fn.file, join(app.outdir, `asset.${key.replace(/\.zip$/, '')}`));
  }
}, 300_000);

afterAll(() => {
  for (const h of hosts.values()) h.stop();
  secrets?.close();
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

/** GET `path` as API Gateway hands it to the function's bundle, run from its asset folder. */
async function get(file: string, resource: string, path: string, pathParameters: Record<string, string>, query?: Record<string, string>) {
  let host = hosts.get(file);
  if (!host) {
    // The environment an API function is given (nothing here reaches the table or the bucket).
    host = new LambdaHost(NODE22, join(dirs.get(file) ?? '', 'index.js'), outdir, {
      PATH: process.env.PATH ?? '',
      TABLE_NAME: 't',
      BUCKET_NAME: 'b',
      SESSION_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:idv-session',
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsUrl,
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_REGION: 'eu-west-1',
      POWERTOOLS_LOG_LEVEL: 'ERROR',
    });
    hosts.set(file, host);
  }
  const headers = { Host: 'id.example.com', 'X-Forwarded-Proto': 'https' };
  const res = await host.invoke<{ statusCode: number; headers: Record<string, string>; body: string }>({
    resource, path, httpMethod: 'GET', headers, multiValueHeaders: {}, pathParameters, queryStringParameters: query ?? null, multiValueQueryStringParameters: null,
    stageVariables: null, body: null, isBase64Encoded: false,
    requestContext: { requestId: 'r1', path, httpMethod: 'GET', stage: 'v1', resourcePath: resource, identity: { sourceIp: '127.0.0.1' } },
  });
  if (res.statusCode >= 500) throw new Error(`${file} answered ${res.statusCode}: ${host.output.slice(-2000)}`);
  return res;
}

describe('files served as they are', () => {
  it('packages the widget\'s and the console\'s scripts and stylesheets beside the asset function\'s bundle, not in it', () => {
    const dir = dirs.get('widget/asset') ?? '';
    expect(readdirSync(join(dir, 'files')).sort()).toEqual(['console.css', 'console.js', 'face-liveness.js', 'widget.css', 'widget.js']);
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    expect(statSync(join(dir, 'index.js')).size).toBeLessThan(100 * 1024);
    expect(readFileSync(join(dir, 'index.js'), 'utf8')).not.toContain('measurePixels');
  });

  it('serves each one with the bytes generated from its source, its Content-Type and Cache-Control', async () => {
    const texts = generatedTexts('src/web/asset-texts.ts');
    const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
    for (const name of ['widget.js', 'widget.css', 'console.js', 'console.css']) {
      const res = await get('widget/asset', '/widget/{asset}', `/widget/${name}`, { asset: name });
      expect([name, res.statusCode, res.headers['Content-Type'], res.headers['Cache-Control']]).toEqual([name, 200, types[name.split('.')[1] ?? ''], 'public, max-age=300']);
      expect([name, res.body === texts[name], res.body.length]).toEqual([name, true, texts[name]?.length]);
    }
    // The Rekognition mode's capture: the module bundled for the browser (lib/served-files.ts BROWSER_BUNDLES), under Lambda's 6 MB answer.
    const bundle = generatedTexts('src/web/face-liveness.ts')['face-liveness.js'] ?? '';
    const res = await get('widget/asset', '/widget/{asset}', '/widget/face-liveness.js', { asset: 'face-liveness.js' });
    expect([res.statusCode, res.headers['Content-Type'], res.body === bundle, bundle.length > 0]).toEqual([200, 'text/javascript; charset=utf-8', true, true]);
    expect(Buffer.byteLength(JSON.stringify(res))).toBeLessThan(6 * 1024 * 1024);
  });

  it('answers 404 for a name its route does not list, whatever is on disk beside it', async () => {
    for (const name of ['nope.js', 'constructor', '../index.js', 'index.js', 'pdf.min.mjs', 'widget.en.json']) {
      const res = await get('widget/asset', '/widget/{asset}', `/widget/${encodeURIComponent(name)}`, { asset: name });
      expect([name, res.statusCode, JSON.parse(res.body)]).toEqual([name, 404, { message: 'Not found' }]);
    }
  });

  it('serves pdf.js as the installed package holds it, and only its two files', async () => {
    const dir = dirs.get('widget/console-pdfjs') ?? '';
    expect(readdirSync(join(dir, 'files')).sort()).toEqual(['pdf.min.mjs', 'pdf.worker.min.mjs']);
    const res = await get('widget/console-pdfjs', '/console/pdfjs/{asset}', '/console/pdfjs/pdf.min.mjs', { asset: 'pdf.min.mjs' });
    expect([res.statusCode, res.headers['Content-Type'], res.headers['Cache-Control']]).toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=86400']);
    expect(res.body === readFileSync(join(ROOT, 'node_modules', 'pdfjs-dist', 'legacy', 'build', 'pdf.min.mjs'), 'utf8')).toBe(true);
    expect((await get('widget/console-pdfjs', '/console/pdfjs/{asset}', '/console/pdfjs/widget.js', { asset: 'widget.js' })).statusCode).toBe(404);
  });

  it('gives the page function each language\'s texts as a file, read for the language asked for', async () => {
    const dir = dirs.get('widget/page') ?? '';
    expect(readdirSync(join(dir, 'files')).sort()).toEqual(['widget.de.json', 'widget.en.json', 'widget.es.json', 'widget.fr.json']);
    for (const lang of ['de', 'en', 'es', 'fr']) {
      expect(readFileSync(join(dir, 'files', `widget.${lang}.json`), 'utf8')).toBe(readFileSync(join(ROOT, 'src', 'web', 'locales', `widget.${lang}.json`), 'utf8'));
    }
    // The bundle holds no text of any language.
    expect(readFileSync(join(dir, 'index.js'), 'utf8')).not.toContain('This link does not work');
    // An unknown link: the page in plain words, without a table read (the token's shape is checked first).
    const unknown = 'not-a-link';
    const en = await get('widget/page', '/v/{token}', `/v/${unknown}`, { token: unknown });
    expect([en.statusCode, en.headers['Content-Language']]).toEqual([404, 'en']);
    expect(en.body).toContain('This link does not work');
    const de = await get('widget/page', '/v/{token}', `/v/${unknown}`, { token: unknown }, { lang: 'de' });
    expect([de.statusCode, de.headers['Content-Language']]).toEqual([404, 'de']);
    expect(de.body).toContain(JSON.parse(readFileSync(join(ROOT, 'src', 'web', 'locales', 'widget.de.json'), 'utf8'))['outcome.unknown.title']);
  });
});
