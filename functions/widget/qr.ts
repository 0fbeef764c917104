import { qrSvg } from '../../src/app/widget';
import { httpHandler } from '../../src/http/handler';

/** GET /v/<token>/qr: the QR code (SVG) of the widget link. */
export const handler = httpHandler({
  operation: 'getWidgetQr',
  status: 200,
  raw: true,
  run: async (deps, req) => ({ contentType: 'image/svg+xml', body: await qrSvg(deps, req.info, req.params.token ?? '') }),
});
