/** The file kinds the service accepts, detected from their bytes (a client's claimed type is ignored). */
export type FileKind = 'jpg' | 'png' | 'webp' | 'pdf';

export const CONTENT_TYPES: Readonly<Record<FileKind, string>> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', pdf: 'application/pdf' };

type Size = { width: number; height: number };

/** Latin-1 text of some bytes (a signature compares equal only when its bytes are ASCII, as with UTF-8). */
const text = (b: Uint8Array, start: number, end: number) => String.fromCharCode(...b.subarray(start, end));
/** Reads within the bytes given: past their end throws (RangeError), as a truncated header must. */
const view = (b: Uint8Array, offset: number) => new DataView(b.buffer, b.byteOffset + offset, Math.max(0, b.byteLength - offset));
const u16be = (b: Uint8Array, o: number) => view(b, o).getUint16(0);
const u32be = (b: Uint8Array, o: number) => view(b, o).getUint32(0);
const i16le = (b: Uint8Array, o: number) => view(b, o).getInt16(0, true);
const u24le = (b: Uint8Array, o: number) => view(b, o).getUint16(0, true) + (view(b, o).getUint8(2) << 16);

/**
 * The three header readers the service needs, as image-size 2's own JPG, PNG and WebP handlers read
 * (test/unit/domain/file-type.test.ts compares them on valid, truncated and corrupted files): its
 * handlers and their shared utilities cost each function that checks uploads 2.4 KB, these 0.8 KB.
 * `validate` throws for a format's signature with an impossible header; `calculate` throws for a
 * header it cannot read.
 */
const IMAGES: readonly [Exclude<FileKind, 'pdf'>, { validate(b: Uint8Array): boolean; calculate(b: Uint8Array): Size }][] = [
  [
    'jpg',
    {
      validate: (b) => b[0] === 0xff && b[1] === 0xd8,
      calculate(b) {
        // Segment by segment from after SOI and the first marker, to the first baseline, extended or progressive frame header.
        let input = b.subarray(4);
        while (input.length) {
          const i = u16be(input, 0);
          if (i > input.length) throw new TypeError('Corrupt JPG, exceeded buffer limits');
          if (input[i] !== 0xff) {
            input = input.subarray(1);
            continue;
          }
          const next = input[i + 1];
          if (next === 0xc0 || next === 0xc1 || next === 0xc2) return { height: u16be(input, i + 5), width: u16be(input, i + 7) };
          input = input.subarray(i + 2);
        }
        throw new TypeError('Invalid JPG, no size found');
      },
    },
  ],
  [
    'png',
    {
      validate(b) {
        if (text(b, 1, 8) !== 'PNG\r\n\x1a\n') return false;
        // Apple's CgBI chunk may come before IHDR.
        const first = text(b, 12, 16);
        if ((first === 'CgBI' ? text(b, 28, 32) : first) !== 'IHDR') throw new TypeError('Invalid PNG');
        return true;
      },
      calculate: (b) => (text(b, 12, 16) === 'CgBI' ? { height: u32be(b, 36), width: u32be(b, 32) } : { height: u32be(b, 20), width: u32be(b, 16) }),
    },
  ],
  [
    'webp',
    {
      validate: (b) => text(b, 0, 4) === 'RIFF' && text(b, 8, 12) === 'WEBP' && text(b, 12, 15) === 'VP8',
      calculate(b) {
        const chunk = text(b, 12, 16);
        const input = b.slice(20, 30);
        const first = input[0] ?? 0;
        if (chunk === 'VP8X') {
          if ((first & 0xc1) === 0) return { height: 1 + u24le(input, 7), width: 1 + u24le(input, 4) };
        } else if (chunk === 'VP8 ' && first !== 0x2f) {
          return { height: i16le(input, 8) & 0x3fff, width: i16le(input, 6) & 0x3fff };
        } else if (chunk === 'VP8L' && !(input[3] === 0x9d && input[4] === 0x01 && input[5] === 0x2a)) {
          const at = (k: number) => input[k] ?? 0;
          return { height: 1 + (((at(4) & 0xf) << 10) | (at(3) << 2) | ((at(2) & 0xc0) >> 6)), width: 1 + (((at(2) & 0x3f) << 8) | at(1)) };
        }
        throw new TypeError('Invalid WebP');
      },
    },
  ],
];

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
