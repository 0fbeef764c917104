import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { qrCodeSvg } from '../../../src/app/widget-qr';

describe('the widget link as a QR code', () => {
  it('is an SVG that a QR reader decodes back to the link', async () => {
    const wasm = readFileSync(join(__dirname, '..', '..', '..', 'node_modules', 'zxing-wasm', 'dist', 'reader', 'zxing_reader.wasm'));
    await prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer }, fireImmediately: true });
    const link = 'https://idv.example.com/v/wt_01JD3Q4V5X6Y7Z8A9B0C1D2E3F.abcdefghijklmnopqrstuvwxyz012345';
    const svg = qrCodeSvg(link);
    expect(svg.startsWith('<svg')).toBe(true);
    const { data, info } = await sharp(Buffer.from(svg), { density: 300 }).flatten({ background: '#fff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const read = await readBarcodes({ data: new Uint8ClampedArray(data), width: info.width, height: info.height, colorSpace: 'srgb' } as unknown as Parameters<typeof readBarcodes>[0], { formats: ['QRCode'] });
    expect(read.map((r) => r.text)).toEqual([link]);
  });
});
