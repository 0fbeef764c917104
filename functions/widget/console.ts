import { httpHandler } from '../../src/http/handler';
import { CONSOLE_CSP, consolePage } from '../../src/web/console';

/** GET /console: the reviewer console (the API token is typed in and kept in sessionStorage). */
export const handler = httpHandler({
  operation: 'getConsole',
  status: 200,
  raw: true,
  run: async (_deps, req) => ({ contentType: 'text/html; charset=utf-8', body: consolePage(req.trailingSlash), headers: { 'Content-Security-Policy': CONSOLE_CSP, 'Referrer-Policy': 'no-referrer' } }),
});
