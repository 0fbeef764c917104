import { create } from 'qrcode/lib/core/qrcode';
import { render } from 'qrcode/lib/renderer/svg-tag';
import type { Deps, RequestInfo } from './deps';
import { widgetLinks } from './present';
import { resolveSession, type SessionDeps } from './widget';

/**
 * A link as a QR code in SVG, drawn with the qrcode package's encoder and SVG renderer. Not its
 * entry, which also loads the PNG renderer with pngjs (29 KB this function never runs); and in a
 * module of its own so that qrcode (CommonJS) stays out of every other widget function's bundle.
 */
export function qrCodeSvg(text: string): string {
  const options = { margin: 2, errorCorrectionLevel: 'M' } as const;
  return render(create(text, options), options);
}

/** The QR code (SVG) of the widget link, for continuing on a phone. */
export async function qrSvg(deps: SessionDeps & Pick<Deps, 'publicBaseUrl'>, req: RequestInfo, token: string): Promise<string> {
  const { aggregate } = await resolveSession(deps, token);
  return qrCodeSvg(widgetLinks(deps, req, aggregate.verification.id).url);
}
