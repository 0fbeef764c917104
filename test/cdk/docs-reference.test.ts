import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { generatedTexts } from '../../lib/served-files';
import { constructName, ServiceFunction } from '../../lib/service-function';
import { LambdaHost } from '../../scripts/lambda-host';
import { NODE22 } from '../../scripts/offline-trace';
import { functionNeeds } from '../../src/http/routes';
import { DOCS_CSP } from '../../src/web/docs-page';

/**
 * The API reference's function (GET /docs and /docs/<file>) synthesized with real bundling and run
 * from its asset folder in plain Node 22: what deploys serves the page and Swagger UI's files itself,
 * as npm start does (test/e2e/docs.browser.test.ts). ~20 s.
 */
const ROOT = join(__dirname, '..', '..');
const FILE = 'docs/reference';
let outdir: string;
let dir: string;
let host: LambdaHost;

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'idv-docs-synth-'));
  const app = new App({ outdir });
  const stack = new Stack(app, 'DocsTest', { env: { account: '123456789012', region: 'eu-west-1' } });
  const fn = new ServiceFunction(stack, constructName(FILE), { file: FILE, environment: {}, files: functionNeeds(FILE).files });
  const template = app.synth().getStackByName(stack.stackName).template as { Resources: Record<string, { Properties?: { Code?: { S3Key?: string } } }> };
  const key = String(template.Resources[stack.getLogicalId(fn.node.defaultChild as CfnElement)]?.Properties?.Code?.S3Key);
  dir = join(app.outdir, `asset.${key.replace(/\.zip$/, '')}`);
  host = new LambdaHost(NODE22, join(dir, 'index.js'), outdir, { PATH: process.env.PATH ?? '', AWS_REGION: 'eu-west-1', POWERTOOLS_LOG_LEVEL: 'ERROR' });
}, 300_000);

afterAll(() => {
  host?.stop();
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

/** GET `path` as API Gateway hands it to the function. */
async function get(resource: string, path: string, pathParameters: Record<string, string> | null) {
  const res = await host.invoke<{ statusCode: number; headers: Record<string, string>; body: string }>({
    resource, path, httpMethod: 'GET', headers: { Host: 'id.example.com', 'X-Forwarded-Proto': 'https' }, multiValueHeaders: {}, pathParameters, queryStringParameters: null,
    multiValueQueryStringParameters: null, stageVariables: null, body: null, isBase64Encoded: false,
    requestContext: { requestId: 'r1', path, httpMethod: 'GET', stage: 'v1', resourcePath: resource, identity: { sourceIp: '127.0.0.1' } },
  });
  if (res.statusCode >= 500) throw new Error(`${FILE} answered ${res.statusCode}: ${host.output.slice(-2000)}`);
  return res;
}

describe('the API reference as deployed', () => {
  it('packages Swagger UI and the page\'s files beside the bundle, not in it', () => {
    expect(readdirSync(join(dir, 'files')).sort()).toEqual(['docs.css', 'docs.js', 'swagger-ui-bundle.js', 'swagger-ui.css']);
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    expect(statSync(join(dir, 'index.js')).size).toBeLessThan(100 * 1024);
  });

  it('serves the page with its policy, and each file as the package or the source holds it', async () => {
    const page = await get('/docs', '/docs', null);
    expect([page.statusCode, page.headers['Content-Type'], page.headers['Content-Security-Policy']]).toEqual([200, 'text/html; charset=utf-8', DOCS_CSP]);
    expect(page.body).toContain('data-openapi="api/v1/openapi.json"');
    const expected: Record<string, string> = {
      'swagger-ui-bundle.js': readFileSync(join(ROOT, 'node_modules', 'swagger-ui-dist', 'swagger-ui-bundle.js'), 'utf8'),
      'swagger-ui.css': readFileSync(join(ROOT, 'node_modules', 'swagger-ui-dist', 'swagger-ui.css'), 'utf8'),
      'docs.css': readFileSync(join(ROOT, 'src', 'web', 'docs.css'), 'utf8'),
      'docs.js': generatedTexts('src/web/docs-script.ts')['docs.js'] ?? '',
    };
    for (const [name, text] of Object.entries(expected)) {
      const res = await get('/docs/{asset}', `/docs/${name}`, { asset: name });
      expect([name, res.statusCode, res.headers['Cache-Control'], res.body === text]).toEqual([name, 200, 'public, max-age=86400', true]);
    }
    for (const name of ['index.js', 'swagger-initializer.js', 'widget.js']) expect([name, (await get('/docs/{asset}', `/docs/${name}`, { asset: name })).statusCode]).toEqual([name, 404]);
  });
});
