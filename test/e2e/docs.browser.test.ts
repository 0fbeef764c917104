import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { useTestRuntime } from '../integration/harness';
import { ARTIFACTS, axeViolations, useBrowser } from './browser';

const t = useTestRuntime();
const b = useBrowser();

/** A page that may reach the service's origin only, and what it did. */
interface Watched {
  context: BrowserContext;
  page: Page;
  /** Requests to any other origin: refused, as if the machine were offline. */
  foreign: string[];
  /** Console errors (a CSP refusal is one) and uncaught exceptions. */
  errors: string[];
  /** Every request the page made, by method and URL. */
  requests: string[];
}

async function offlinePage(): Promise<Watched> {
  const origin = new URL(t.h.runtime.url).origin;
  const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const watched: Watched = { context, page: await context.newPage(), foreign: [], errors: [], requests: [] };
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('data:') || url.startsWith('blob:') || new URL(url).origin === origin) return route.continue();
    watched.foreign.push(url);
    return route.abort('blockedbyclient');
  });
  watched.page.on('request', (r) => watched.requests.push(`${r.method()} ${r.url()}`));
  watched.page.on('console', (m) => m.type() === 'error' && watched.errors.push(m.text()));
  watched.page.on('pageerror', (e) => watched.errors.push(e.message));
  return watched;
}

/** The operations of a document, as Swagger UI's element ids name them (`operations-<tag>-<operationId>`). */
function operationIds(doc: { paths: Record<string, Record<string, { operationId: string; tags: string[] }>> }): string[] {
  return Object.values(doc.paths)
    .flatMap((methods) => Object.values(methods))
    .map((op) => `operations-${op.tags[0]}-${op.operationId}`)
    .sort();
}

describe('the API reference at /docs', () => {
  it('renders every operation of the served OpenAPI document, from files of its own origin, with the other pages\' security headers', async () => {
    const { context, page, foreign, errors, requests } = await offlinePage();
    try {
      const response = await page.goto(`${t.h.runtime.url}/docs`);
      expect(response?.status()).toBe(200);
      const headers = response?.headers() ?? {};
      expect(headers['content-type']).toBe('text/html; charset=utf-8');
      expect(headers['content-security-policy']).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'");
      expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'strict-transport-security': 'max-age=63072000; includeSubDomains' });

      const doc = (await t.api('GET', '/api/v1/openapi.json', undefined, { token: null })).body as Parameters<typeof operationIds>[0] & { info: { title: string } };
      await page.waitForSelector('.swagger-ui .opblock');
      const shown = await page.$$eval('.swagger-ui .opblock', (blocks) => blocks.map((e) => (e as unknown as { id: string }).id).sort());
      expect(shown).toEqual(operationIds(doc));
      expect(await page.textContent('.swagger-ui .info .title')).toContain(doc.info.title);
      // The document came from the service, relative to the page (a stage prefix would be kept).
      expect(requests).toContain(`GET ${t.h.runtime.url}/api/v1/openapi.json`);
      await page.screenshot({ path: join(ARTIFACTS, 'docs-1-reference.png') });

      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is clean under axe-core (WCAG 2.2 AA) collapsed, with operations of every kind opened, a request tried, the schemas opened and the Authorize dialog, all offline', async () => {
    const { context, page, foreign, errors, requests } = await offlinePage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(`${t.h.runtime.url}/docs`);
      await page.waitForSelector('.swagger-ui .opblock');
      const violations: Record<string, string[]> = {};
      violations.collapsed = await axeViolations(page);

      // A body with examples (POST), path and query parameters (GET), PATCH, an action (PUT), DELETE, an HTML answer.
      for (const id of ['Verifications-createVerification', 'Verifications-listVerifications', 'Verifications-updateVerification', 'Verifications-approveVerification', 'Documents-deleteDocument', 'Widget-getWidgetPage']) {
        await page.click(`#operations-${id} .opblock-summary-control`);
      }
      await page.waitForSelector('#operations-Widget-getWidgetPage .opblock-body');
      violations.opened = await axeViolations(page);

      // "Try it out" calls this service (the served document's `servers`), here its public /health.
      await page.click('#operations-Service-health .opblock-summary-control');
      await page.click('#operations-Service-health .try-out__btn');
      await page.click('#operations-Service-health .execute');
      await page.waitForSelector('#operations-Service-health .live-responses-table tbody .response-col_status');
      expect(await page.textContent('#operations-Service-health .live-responses-table tbody .response-col_status')).toContain('200');
      expect(requests).toContain(`GET ${t.h.runtime.url}/health`);
      violations.tried = await axeViolations(page);
      await page.screenshot({ path: join(ARTIFACTS, 'docs-2-tried.png') });

      await page.click('.swagger-ui section.models h4');
      await page.waitForSelector('.swagger-ui section.models .json-schema-2020-12');
      violations.schemas = await axeViolations(page);

      await page.click('.swagger-ui .auth-wrapper .btn.authorize');
      await page.waitForSelector('.swagger-ui .dialog-ux .modal-ux');
      violations.authorize = await axeViolations(page);

      expect(violations).toEqual({ collapsed: [], opened: [], tried: [], schemas: [], authorize: [] });
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);

  it('finds its files from /docs/ too, and answers 404 for a file it does not serve', async () => {
    const page = await (await t.api('GET', '/docs/', undefined, { token: null, skipContract: true })).text;
    expect(page).toContain('src="../docs/swagger-ui-bundle.js"');
    expect(page).toContain('data-openapi="../api/v1/openapi.json"');
    for (const [file, type] of [['swagger-ui-bundle.js', 'text/javascript'], ['swagger-ui.css', 'text/css'], ['docs.css', 'text/css'], ['docs.js', 'text/javascript']] as const) {
      const res = await fetch(`${t.h.runtime.url}/docs/${file}`);
      expect([file, res.status, res.headers.get('content-type')]).toEqual([file, 200, `${type}; charset=utf-8`]);
    }
    const missing = await fetch(`${t.h.runtime.url}/docs/index.html`);
    expect(missing.status).toBe(404);
  });
});
