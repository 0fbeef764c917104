import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { DOCS_CSP, docsPage } from '../../src/web/docs-page';

/** GET /docs (no auth, as the document it renders): the API reference, rendered in the browser from GET /api/v1/openapi.json. */
export const handler = httpHandler(route.getDocs, async (_deps, req) => ({
  contentType: 'text/html; charset=utf-8',
  body: docsPage(req.trailingSlash),
  headers: { 'Content-Security-Policy': DOCS_CSP, 'Referrer-Policy': 'no-referrer' },
}));
