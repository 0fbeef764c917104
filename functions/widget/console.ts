import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { CONSOLE_CSP, consolePage } from '../../src/web/console';

/** GET /console: the reviewer console (the API token is typed in and kept in sessionStorage). */
export const handler = httpHandler(route.getConsole, async (_deps, req) => ({ contentType: 'text/html; charset=utf-8', body: consolePage(req.trailingSlash), headers: { 'Content-Security-Policy': CONSOLE_CSP, 'Referrer-Policy': 'no-referrer' } }));
