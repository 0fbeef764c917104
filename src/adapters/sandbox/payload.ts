import { inflateSync } from 'node:zlib';

/** The keyword that marks sandbox test data in an image. */
export const SANDBOX_KEYWORD = 'idv-sandbox';
/** A sandbox payload is a small JSON document: a compressed one inflating past this is not read (decompression bombs). */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

/** Inflates at most MAX_PAYLOAD_BYTES; undefined past that or when the data is corrupt. */
function inflateBounded(data: Buffer): Buffer | undefined {
  try {
    return inflateSync(data, { maxOutputLength: MAX_PAYLOAD_BYTES });
  } catch {
    return undefined;
  }
}

function pngPayload(bytes: Buffer): string | undefined {
  let offset = 8;
  while (offset + 8 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'tEXt' || type === 'zTXt' || type === 'iTXt') {
      const nul = data.indexOf(0);
      if (nul > 0 && data.toString('latin1', 0, nul) === SANDBOX_KEYWORD) {
        if (type === 'tEXt') return data.subarray(nul + 1).toString('utf8');
        if (type === 'zTXt') return inflateBounded(data.subarray(nul + 2))?.toString('utf8');
        // iTXt: keyword\0 flag method lang\0 translated\0 text
        const flag = data[nul + 1];
        const rest = data.subarray(nul + 3);
        const lang = rest.indexOf(0);
        const translated = rest.indexOf(0, lang + 1);
        const text = rest.subarray(translated + 1);
        return (flag === 1 ? inflateBounded(text) : text)?.toString('utf8');
      }
    }
    if (type === 'IEND') break;
    offset += 12 + length;
  }
  return undefined;
}

function jpegPayload(bytes: Buffer): string | undefined {
  let offset = 2;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff) {
    const marker = bytes[offset + 1]!;
    if (marker === 0xda || marker === 0xd9) break; // start of scan / end of image
    const length = bytes.readUInt16BE(offset + 2);
    if (marker === 0xfe) {
      const text = bytes.toString('utf8', offset + 4, offset + 2 + length);
      if (text.startsWith(`${SANDBOX_KEYWORD}:`)) return text.slice(SANDBOX_KEYWORD.length + 1);
    }
    offset += 2 + length;
  }
  return undefined;
}

function pdfPayload(bytes: Buffer): string | undefined {
  const text = bytes.toString('latin1');
  const at = text.indexOf(`%${SANDBOX_KEYWORD}:`);
  if (at < 0) return undefined;
  const end = text.indexOf('\n', at);
  return Buffer.from(text.slice(at + SANDBOX_KEYWORD.length + 2, end < 0 ? undefined : end), 'latin1').toString('utf8');
}

/** The sandbox JSON carried by a PNG text chunk, a JPEG comment or a PDF comment line; undefined when there is none. */
export function readSandboxPayload(bytes: Uint8Array): unknown {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let raw: string | undefined;
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) raw = pngPayload(b);
  else if (b[0] === 0xff && b[1] === 0xd8) raw = jpegPayload(b);
  else if (b.subarray(0, 5).toString('latin1') === '%PDF-') raw = pdfPayload(b);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
