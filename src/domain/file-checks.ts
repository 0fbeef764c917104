import { createInflate, crc32 } from 'node:zlib';

/**
 * Structural checks of an uploaded file (used at upload, and again before the report or the
 * extractor decodes a stored file, which may predate these checks), run at the door so that nothing later (extraction, the
 * report) meets a file that is truncated, undecodable or a decompression bomb. Pure JavaScript plus
 * zlib (which inflates on libuv's thread pool): no image codec is loaded by the API functions, and
 * every inflate is streamed and counted, never held, so memory stays bounded whatever the file claims.
 *
 * Each check answers `undefined` when the file is sound, or the reason (safe to show the client) when not.
 */

/** Decoded pixel data a PNG may inflate to (40 megapixels of 8-bit RGBA, plus one filter byte a row). */
export const MAX_PNG_DECODED_BYTES = 170 * 1024 * 1024;
/** Inflated bytes of a PNG's compressed metadata chunks (zTXt, iTXt, iCCP) together. */
export const MAX_PNG_METADATA_BYTES = 1024 * 1024;
/** Inflated bytes of all the streams of a PDF together. */
export const MAX_PDF_INFLATED_BYTES = 128 * 1024 * 1024;
/** Pages of an uploaded PDF (a proof of address is a few pages). */
export const MAX_PDF_PAGES = 10;

class Bounded extends Error {}

/**
 * Inflates `data` as a stream, handing each chunk to `onChunk` and dropping it, and stops with
 * `Bounded` as soon as more than `limit` bytes came out. Resolves with the inflated length, or with
 * -1 when the zlib data is corrupt or ends early.
 */
function inflateCounted(data: Uint8Array, limit: number, onChunk?: (chunk: Buffer) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflate = createInflate({ chunkSize: 64 * 1024 });
    let total = 0;
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      fn();
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        finish(() => reject(new Bounded()));
        inflate.destroy();
        return;
      }
      onChunk?.(chunk);
    });
    inflate.on('error', () => finish(() => resolve(-1)));
    inflate.on('end', () => finish(() => resolve(total)));
    inflate.end(data);
  });
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Adam7 passes: x start, y start, x step, y step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** The rows of filtered data a PNG's IDAT must inflate to: [bytes per row without the filter byte, row count][]. */
function pngRows(width: number, height: number, bitsPerPixel: number, interlaced: boolean): [number, number][] {
  const rowBytes = (w: number) => Math.ceil((w * bitsPerPixel) / 8);
  if (!interlaced) return [[rowBytes(width), height]];
  const rows: [number, number][] = [];
  for (const [x0, y0, dx, dy] of ADAM7) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w > 0 && h > 0) rows.push([rowBytes(w), h]);
  }
  return rows;
}

/** Every chunk's length and CRC, IHDR first, IDAT present and contiguous, IEND last; the pixel data inflates to exactly what IHDR implies with valid row filters. */
export async function checkPng(bytes: Buffer): Promise<string | undefined> {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'its PNG signature is wrong';
  let offset = 8;
  let ihdr: { width: number; height: number; bitsPerPixel: number; interlaced: boolean } | undefined;
  const idat: Buffer[] = [];
  let idatEnded = false;
  let metadata = 0;
  let ended = false;
  let palette = false;
  let colorType = -1;
  while (offset < bytes.length) {
    if (offset + 12 > bytes.length) return 'it is truncated (a chunk header runs past the end)';
    const length = bytes.readUInt32BE(offset);
    if (length > 0x7fffffff || offset + 12 + length > bytes.length) return 'it is truncated (a chunk runs past the end)';
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) return 'it has a corrupt chunk';
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if ((crc32(bytes.subarray(offset + 4, offset + 8 + length)) >>> 0) !== bytes.readUInt32BE(offset + 8 + length)) {
      return `its ${type} chunk is corrupt (CRC mismatch)`;
    }
    offset += 12 + length;
    if (!ihdr && type !== 'IHDR') return 'it does not start with an IHDR chunk';
    if (type === 'IHDR') {
      if (ihdr || length !== 13) return 'its IHDR chunk is invalid';
      const width = data.readUInt32BE(0);
      const height = data.readUInt32BE(4);
      const depth = data[8]!;
      colorType = data[9]!;
      if (width < 1 || height < 1 || !DEPTHS[colorType]?.includes(depth) || data[10] !== 0 || data[11] !== 0 || data[12]! > 1) {
        return 'its IHDR chunk is invalid';
      }
      ihdr = { width, height, bitsPerPixel: depth * (CHANNELS[colorType] ?? 1), interlaced: data[12] === 1 };
    } else if (type === 'PLTE') {
      palette = true;
    } else if (type === 'IDAT') {
      if (idatEnded) return 'its IDAT chunks are not contiguous';
      idat.push(data);
    } else if (type === 'IEND') {
      ended = true;
      break;
    } else if (type === 'zTXt' || type === 'iTXt' || type === 'iCCP') {
      if (idat.length > 0) idatEnded = true;
      const nul = data.indexOf(0);
      if (nul < 0) return `its ${type} chunk is invalid`;
      let compressed: Buffer | undefined;
      if (type === 'zTXt' || type === 'iCCP') compressed = data.subarray(nul + 2);
      else if (data[nul + 1] === 1) {
        const lang = data.indexOf(0, nul + 3);
        const translated = lang < 0 ? -1 : data.indexOf(0, lang + 1);
        if (translated < 0) return 'its iTXt chunk is invalid';
        compressed = data.subarray(translated + 1);
      }
      if (compressed) {
        try {
          const n = await inflateCounted(compressed, MAX_PNG_METADATA_BYTES - metadata);
          if (n < 0) return `its ${type} chunk is corrupt`;
          metadata += n;
        } catch (error) {
          if (error instanceof Bounded) return `its metadata inflates to more than ${MAX_PNG_METADATA_BYTES / 1024 / 1024} MB`;
          throw error;
        }
      }
    } else if (idat.length > 0) {
      idatEnded = true;
    }
  }
  if (!ihdr) return 'it has no IHDR chunk';
  if (!ended) return 'it is truncated (no IEND chunk)';
  if (idat.length === 0) return 'it has no image data';
  if (colorType === 3 && !palette) return 'it has no palette';
  const rows = pngRows(ihdr.width, ihdr.height, ihdr.bitsPerPixel, ihdr.interlaced);
  const expected = rows.reduce((sum, [bytesPerRow, count]) => sum + (bytesPerRow + 1) * count, 0);
  if (expected > MAX_PNG_DECODED_BYTES) return `it decodes to more than ${MAX_PNG_DECODED_BYTES / 1024 / 1024} MB of pixels`;
  // Walk the inflated stream row by row: each row starts with a filter type 0..4.
  let segment = 0;
  let rowsLeft = rows[0]?.[1] ?? 0;
  let untilFilter = 0;
  let badFilter = false;
  const onChunk = (chunk: Buffer) => {
    let i = untilFilter;
    while (i < chunk.length && segment < rows.length) {
      if (chunk[i]! > 4) badFilter = true;
      const step = (rows[segment]?.[0] ?? 0) + 1;
      rowsLeft--;
      if (rowsLeft === 0) {
        segment++;
        rowsLeft = rows[segment]?.[1] ?? 0;
      }
      i += step;
    }
    untilFilter = i - chunk.length;
  };
  let inflated: number;
  try {
    inflated = await inflateCounted(Buffer.concat(idat), expected, onChunk);
  } catch (error) {
    if (error instanceof Bounded) return 'its image data is larger than its header says';
    throw error;
  }
  if (inflated < 0) return 'its image data is corrupt or truncated';
  if (inflated !== expected) return 'its image data is shorter than its header says';
  if (badFilter) return 'its image data is corrupt (invalid row filter)';
  return undefined;
}

/** Markers in order from SOI to EOI, a frame header with dimensions before the first scan, the entropy-coded data of every scan complete. */
export function checkJpeg(bytes: Buffer): string | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return 'its JPEG signature is wrong';
  let offset = 2;
  let frame = false;
  let scans = 0;
  while (offset < bytes.length) {
    if (bytes[offset] !== 0xff) return 'it is corrupt (a marker is missing)';
    let marker = bytes[offset + 1];
    // Fill bytes before a marker are allowed.
    while (marker === 0xff && offset + 2 < bytes.length) marker = bytes[++offset + 1];
    if (marker === undefined) break;
    offset += 2;
    if (marker === 0xd9) {
      if (!frame || scans === 0) return 'it has no image data';
      return undefined;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0xd8 || marker === 0x00) return 'it is corrupt (an unexpected marker)';
    if (offset + 2 > bytes.length) break;
    const length = bytes.readUInt16BE(offset);
    if (length < 2 || offset + length > bytes.length) return 'it is truncated (a segment runs past the end)';
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (length < 8 || bytes.readUInt16BE(offset + 3) === 0 || bytes.readUInt16BE(offset + 5) === 0) return 'its frame header is invalid';
      frame = true;
    }
    offset += length;
    if (marker === 0xda) {
      if (!frame) return 'it has a scan before its frame header';
      scans++;
      // Entropy-coded data runs to the next marker that is not a stuffed zero or a restart marker.
      for (;;) {
        const ff = bytes.indexOf(0xff, offset);
        if (ff < 0 || ff + 1 >= bytes.length) return 'it is truncated (no end of image)';
        const next = bytes[ff + 1]!;
        if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
          offset = next === 0xff ? ff + 1 : ff + 2;
          continue;
        }
        offset = ff;
        break;
      }
    }
  }
  return 'it is truncated (no end of image)';
}

/** The RIFF container's size matches the bytes and holds one still image chunk (VP8 or VP8L) of sound length. */
export function checkWebp(bytes: Buffer): string | undefined {
  if (bytes.length < 20 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') return 'its WebP signature is wrong';
  const riffEnd = 8 + bytes.readUInt32LE(4);
  if (riffEnd > bytes.length) return 'it is truncated';
  let offset = 12;
  let image = false;
  while (offset + 8 <= riffEnd) {
    const type = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (offset + 8 + size > riffEnd) return 'it is truncated (a chunk runs past the end)';
    if (type === 'ANIM' || type === 'ANMF') return 'it is animated';
    if (type === 'VP8 ') {
      // Frame tag: the first partition's size must fit in the chunk; a key frame carries the start code.
      if (size < 10) return 'its image data is truncated';
      const tag = bytes.readUIntLE(offset + 8, 3);
      if ((tag & 1) !== 0 || bytes[offset + 11] !== 0x9d || bytes[offset + 12] !== 0x01 || bytes[offset + 13] !== 0x2a) return 'its image data is invalid';
      if (tag >> 5 > size - 10) return 'its image data is truncated';
      image = true;
    } else if (type === 'VP8L') {
      if (size < 5 || bytes[offset + 8] !== 0x2f) return 'its image data is invalid';
      image = true;
    }
    offset += 8 + size + (size % 2);
  }
  if (!image) return 'it has no image data';
  return undefined;
}

const PDF_UNSAFE_FILTERS = new Set(['LZWDecode', 'LZW', 'RunLengthDecode', 'RL']);
const PDF_FLATE = new Set(['FlateDecode', 'Fl']);

function decodeAsciiHex(data: Buffer): Buffer {
  const hex = data.toString('latin1').replace(/>.*$/s, '').replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex');
}

function decodeAscii85(data: Buffer): Buffer {
  const text = data.toString('latin1').replace(/~>.*$/s, '').replace(/\s+/g, '').replace(/^<~/, '');
  const out: number[] = [];
  let group: number[] = [];
  for (const ch of text) {
    if (ch === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const c = ch.charCodeAt(0) - 33;
    if (c < 0 || c > 84) continue;
    group.push(c);
    if (group.length === 5) {
      let n = 0;
      for (const g of group) n = n * 85 + g;
      out.push((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
      group = [];
    }
  }
  if (group.length > 1) {
    const k = group.length;
    while (group.length < 5) group.push(84);
    let n = 0;
    for (const g of group) n = n * 85 + g;
    out.push(...[(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].slice(0, k - 1));
  }
  return Buffer.from(out);
}

/**
 * A PDF: header, trailer and cross-reference marker present, not encrypted (its streams could not be
 * measured), every stream's filters known and its inflated size counted against one budget for the
 * whole file, and between one and MAX_PDF_PAGES pages (counted in the file and in its object streams).
 */
export async function checkPdf(bytes: Buffer): Promise<string | undefined> {
  const text = bytes.toString('latin1');
  if (!/^%PDF-[12]\.\d/.test(text)) return 'its PDF header is wrong';
  const tail = text.slice(-2048);
  if (!tail.includes('%%EOF') || !tail.includes('startxref')) return 'it is truncated (no trailer)';
  if (/\/Encrypt\b/.test(text)) return 'it is encrypted: upload it without a password or restrictions';
  let budget = MAX_PDF_INFLATED_BYTES;
  let pages = countPages(text);
  const streamStart = /(?:\r\n|\r|\n|\s)stream\r?\n/g;
  for (let m = streamStart.exec(text); m; m = streamStart.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) return 'it is truncated (a stream has no end)';
    const dictStart = text.lastIndexOf(' obj', m.index);
    const dict = text.slice(dictStart < 0 ? Math.max(0, m.index - 4096) : dictStart, m.index);
    streamStart.lastIndex = end;
    const filterMatch = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
    const filters = filterMatch ? [...(filterMatch[1] ?? '').matchAll(/\/([A-Za-z0-9]+)/g)].map((f) => f[1] ?? '') : [];
    if (filters.some((f) => PDF_UNSAFE_FILTERS.has(f))) return 'it uses an LZW or run-length filter, which is not accepted';
    let data: Buffer = bytes.subarray(start, end);
    for (const filter of filters) {
      if (filter === 'ASCIIHexDecode' || filter === 'AHx') data = decodeAsciiHex(data);
      else if (filter === 'ASCII85Decode' || filter === 'A85') data = decodeAscii85(data);
      else if (PDF_FLATE.has(filter)) {
        const isObjectStream = /\/Type\s*\/ObjStm\b/.test(dict);
        const kept: Buffer[] = [];
        try {
          const n = await inflateCounted(data, budget, isObjectStream ? (c) => kept.push(c) : undefined);
          if (n > 0) budget -= n;
        } catch (error) {
          if (error instanceof Bounded) return `its content inflates to more than ${MAX_PDF_INFLATED_BYTES / 1024 / 1024} MB`;
          throw error;
        }
        if (isObjectStream) pages += countPages(Buffer.concat(kept).toString('latin1'));
        break;
      } else break; // image codecs (DCT, JPX, CCITT, JBIG2): bounded by pixels when rendered
    }
    if (pages > MAX_PDF_PAGES) return `it has more than ${MAX_PDF_PAGES} pages`;
  }
  if (pages > MAX_PDF_PAGES) return `it has more than ${MAX_PDF_PAGES} pages`;
  if (pages === 0) return 'it has no pages';
  return undefined;
}

function countPages(text: string): number {
  return (text.match(/\/Type\s*\/Page(?![A-Za-z])/g) ?? []).length;
}

const BY_TYPE: Record<string, (bytes: Buffer) => string | undefined | Promise<string | undefined>> = {
  'image/png': checkPng,
  'image/jpeg': checkJpeg,
  'image/webp': checkWebp,
  'application/pdf': checkPdf,
};

/** The check of a stored file by its content type; a type without a check is refused. */
export async function checkFile(bytes: Uint8Array, contentType: string): Promise<string | undefined> {
  const check = BY_TYPE[contentType];
  if (!check) return `${contentType} files are not accepted`;
  return check(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
