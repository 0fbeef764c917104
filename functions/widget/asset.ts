import { NotFoundError } from '../../src/domain/errors';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { CONSOLE_CSS, CONSOLE_JS } from '../../src/web/console';
import { WIDGET_CSS, WIDGET_JS } from '../../src/web/widget-script';

const ASSETS: Record<string, { contentType: string; body: string }> = {
  'widget.js': { contentType: 'text/javascript; charset=utf-8', body: WIDGET_JS },
  'widget.css': { contentType: 'text/css; charset=utf-8', body: WIDGET_CSS },
  'console.js': { contentType: 'text/javascript; charset=utf-8', body: CONSOLE_JS },
  'console.css': { contentType: 'text/css; charset=utf-8', body: CONSOLE_CSS },
};

/** GET /widget/<asset>: the scripts and stylesheets of the widget and the console, served by the service (no CDN). */
export const handler = httpHandler(route.getWidgetAsset, async (_deps, req) => {
  // Own entries only: `constructor`, `toString`… are not assets.
  const name = req.params.asset;
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset) throw new NotFoundError('Not found');
  return { ...asset, headers: { 'Cache-Control': 'public, max-age=300' } };
});
