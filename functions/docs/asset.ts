import { NotFoundError } from '../../src/domain/errors';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { servedFile } from '../../src/web/served-files';

/**
 * GET /docs/<file>: Swagger UI's script and stylesheet (the swagger-ui-dist package's files), the
 * page's own stylesheet and script, served by the service itself (no CDN): files of the function's
 * asset, read on first request.
 */
export const handler = httpHandler(route.getDocsAsset, async (_deps, req) => {
  const file = servedFile(route.getDocsAsset, req.params.asset);
  if (!file) throw new NotFoundError('Not found');
  return { ...file, headers: { 'Cache-Control': 'public, max-age=86400' } };
});
