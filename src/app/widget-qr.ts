import QRCode from 'qrcode';
import type { Deps, RequestInfo } from './deps';
import { widgetLinks } from './present';
import { resolveSession, type SessionDeps } from './widget';

// Its own module: qrcode (CommonJS, with pngjs) stays out of every other widget function's bundle.
/** The QR code (SVG) of the widget link, for continuing on a phone. */
export async function qrSvg(deps: SessionDeps & Pick<Deps, 'publicBaseUrl'>, req: RequestInfo, token: string): Promise<string> {
  const { aggregate } = await resolveSession(deps, token);
  return QRCode.toString(widgetLinks(deps, req, aggregate.verification.id).url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
}
