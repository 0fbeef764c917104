import { NotFoundError } from '../../src/domain/errors';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { pdfjsAsset } from '../../src/web/pdfjs-assets';

/** GET /console/pdfjs/<file>: pdf.js (legacy build) and its worker for the console's PDF viewer, self-hosted. */
export const handler = httpHandler(route.getConsolePdfjs, async (_deps, req) => {
  const body = pdfjsAsset(req.params.asset);
  if (body === undefined) throw new NotFoundError('Not found');
  return { contentType: 'text/javascript; charset=utf-8', body, headers: { 'Cache-Control': 'public, max-age=86400' } };
});
