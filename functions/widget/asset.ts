import { NotFoundError } from '../../src/domain/errors';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { servedFile } from '../../src/web/served-files';

/**
 * GET /widget/<asset>: the scripts and stylesheets of the widget and the console, served by the
 * service (no CDN): files of the function's asset (the route's `needs.files`), read on first request.
 */
export const handler = httpHandler(route.getWidgetAsset, async (_deps, req) => {
  const file = servedFile(route.getWidgetAsset, req.params.asset);
  if (!file) throw new NotFoundError('Not found');
  return { ...file, headers: { 'Cache-Control': 'public, max-age=300' } };
});
