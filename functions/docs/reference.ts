import { NotFoundError } from '../../src/domain/errors';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { DOCS_CSP, docsPage } from '../../src/web/docs-page';
import { servedFile } from '../../src/web/served-files';

/**
 * GET /docs (no auth, as the document it renders): the API reference, rendered in the browser from
 * GET /api/v1/openapi.json; and GET /docs/<file>: Swagger UI's script and stylesheet (the
 * swagger-ui-dist package's files) and the page's own, served by the service itself (no CDN), files
 * of the function's asset read on first request. One function for both routes: a page and its files
 * need nothing else, and each function costs the stack four resources of CloudFormation's 500.
 */
export const handler = httpHandler(route.getDocs, async (_deps, req) => {
  const asset = (req.params as { asset?: string }).asset;
  if (asset === undefined) {
    return { contentType: 'text/html; charset=utf-8', body: docsPage(req.trailingSlash), headers: { 'Content-Security-Policy': DOCS_CSP, 'Referrer-Policy': 'no-referrer' } };
  }
  const file = servedFile(route.getDocsAsset, asset);
  if (!file) throw new NotFoundError('Not found');
  return { ...file, headers: { 'Cache-Control': 'public, max-age=86400' } };
});
