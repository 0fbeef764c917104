import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { WIDGET_CSP, widgetPageFor } from '../../src/web/widget';
import { sessionStatus } from '../../src/app/widget';

/** GET /v/<token>: the widget page while the verification takes documents, else a page saying why not (404 for an unknown link). */
export const handler = httpHandler(route.getWidgetPage, async (deps, req) => {
  const { statusCode, body } = widgetPageFor(await sessionStatus(deps, req.params.token), req.trailingSlash);
  return { statusCode, contentType: 'text/html; charset=utf-8', body, headers: { 'Content-Security-Policy': WIDGET_CSP, 'Referrer-Policy': 'no-referrer' } };
});
