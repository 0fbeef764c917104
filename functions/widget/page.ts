import { sessionStatus } from '../../src/app/widget';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { pickLanguage, widgetCsp, widgetPageFor } from '../../src/web/widget';

/**
 * GET /v/<token>: the widget page while the verification takes documents, else a page saying why not
 * (404 for an unknown link); in the language of `?lang=` (the page's switcher) or Accept-Language.
 * Its policy lets AWS's Face Liveness capture connect only for a `rekognition` flow of a deployment
 * that has the capture's settings (the `faceLivenessCapture` port: two settings, no Rekognition grant).
 */
export const handler = httpHandler(route.getWidgetPage, async (deps, req) => {
  const session = await sessionStatus(deps, req.params.token);
  const lang = pickLanguage(req.query.lang, req.acceptLanguage);
  const { statusCode, body } = widgetPageFor(session, { trailingSlash: req.trailingSlash, lang });
  return {
    statusCode,
    contentType: 'text/html; charset=utf-8',
    body,
    headers: { 'Content-Security-Policy': widgetCsp(session?.widget, session?.faceLiveness), 'Referrer-Policy': 'no-referrer', 'Content-Language': lang, Vary: 'Accept-Language' },
  };
});
