import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { WIDGET_CSP, widgetPage } from '../../src/web/widget';
import { resolveSession } from '../../src/app/widget';

/** GET /v/<token>: the widget page (404 for an unknown token). */
export const handler = httpHandler(route.getWidgetPage, async (deps, req) => {
  await resolveSession(deps, req.params.token);
  return { contentType: 'text/html; charset=utf-8', body: widgetPage(req.trailingSlash), headers: { 'Content-Security-Policy': WIDGET_CSP, 'Referrer-Policy': 'no-referrer' } };
});
