import { JPG } from 'image-size/types/jpg';
import { PNG } from 'image-size/types/png';
import { WEBP } from 'image-size/types/webp';

/** The file kinds the service accepts, detected from their bytes (a client's claimed type is ignored). */
export type FileKind = 'jpg' | 'png' | 'webp' | 'pdf';

export const CONTENT_TYPES: Readonly<Record<FileKind, string>> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', pdf: 'application/pdf' };

/**
 * image-size's own per-format handlers, not its entry: the entry registers every format it knows
 * (20, from ICNS to JPEG XL) and the API functions accept three, so each of them carries ~4 KB of
 * header readers instead of ~33 KB (the entry plus a general magic-number table).
 */
const IMAGES = [['jpg', JPG], ['png', PNG], ['webp', WEBP]] as const;

/** `%PDF`, optionally after a UTF-8 byte-order mark, as the PDF signature is commonly recognised. */
const PDF_SIGNATURE = /^(?:\xEF\xBB\xBF)?%PDF/;

/** The kind of a file from its first bytes, or undefined for anything else (or a header too broken to tell). */
export function fileKind(bytes: Uint8Array): FileKind | undefined {
  const head = bytes.subarray(0, 64);
  for (const [kind, handler] of IMAGES) {
    try {
      if (handler.validate(head)) return kind;
    } catch {
      return undefined; // the format's signature with an impossible header (e.g. a PNG without IHDR)
    }
  }
  return PDF_SIGNATURE.test(Buffer.from(head.subarray(0, 8)).toString('latin1')) ? 'pdf' : undefined;
}

/** Width and height from an image's header, without decoding it; throws when the header is unreadable. */
export function imageDimensions(kind: Exclude<FileKind, 'pdf'>, bytes: Uint8Array): { width: number; height: number } {
  const { width = 0, height = 0 } = IMAGES.find(([k]) => k === kind)![1].calculate(bytes);
  return { width, height };
}
