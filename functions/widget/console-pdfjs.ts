import { NotFoundError } from '../../src/domain/errors';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { servedFile } from '../../src/web/served-files';

/** GET /console/pdfjs/<file>: pdf.js (legacy build) and its worker for the console's PDF viewer, self-hosted. */
export const handler = httpHandler(route.getConsolePdfjs, async (_deps, req) => {
  const file = servedFile(route.getConsolePdfjs, req.params.asset);
  if (!file) throw new NotFoundError('Not found');
  return { ...file, headers: { 'Cache-Control': 'public, max-age=86400' } };
});
