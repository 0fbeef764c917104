import { qrSvg } from '../../src/app/widget-qr';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

/** GET /v/<token>/qr: the QR code (SVG) of the widget link. */
export const handler = httpHandler(route.getWidgetQr, async (deps, req) => ({ contentType: 'image/svg+xml', body: await qrSvg(deps, req.info, req.params.token) }));
