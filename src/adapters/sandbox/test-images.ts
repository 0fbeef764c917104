/** Writers of sandbox test images: used by scripts/sandbox-image.ts and the tests. */
import { crc32, deflateSync } from 'node:zlib';
import { SANDBOX_KEYWORD } from './payload';

/** One PNG chunk: length, type, data and CRC. */
export function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/**
 * A real, decodable RGB PNG of the given size; `seed` varies the pixels; `sandbox` adds the
 * idv-sandbox tEXt chunk the sandbox extractor reads (docs/how-to/integrate-the-api.md "Test mode").
 */
export function sandboxPng(width = 8, height = 8, seed = 1, sandbox?: unknown): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width * 3; x++) raw[y * (width * 3 + 1) + 1 + x] = (x * 7 + y * 13 + seed * 31) & 0xff;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...(sandbox === undefined ? [] : [chunk('tEXt', Buffer.concat([Buffer.from(`${SANDBOX_KEYWORD}\0`, 'latin1'), Buffer.from(JSON.stringify(sandbox), 'utf8')]))]),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A minimal one-page PDF (for proof of address); `sandbox` adds an `%idv-sandbox:` comment line. */
export function sandboxPdf(sandbox?: unknown): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let out = '%PDF-1.4\n';
  if (sandbox !== undefined) out += `%${SANDBOX_KEYWORD}:${JSON.stringify(sandbox)}\n`;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
