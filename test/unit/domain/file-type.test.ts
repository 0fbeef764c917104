import sharp from 'sharp';
import { fileKind, imageDimensions } from '../../../src/domain/file-type';
import { pdf, png } from '../../fixtures/images';

describe('file kind from the bytes', () => {
  it('tells JPEG, PNG, WebP and PDF (with or without a byte-order mark) from their signatures', async () => {
    const rgb = sharp({ create: { width: 12, height: 7, channels: 3, background: '#808080' } });
    expect(fileKind(await rgb.clone().jpeg().toBuffer())).toBe('jpg');
    expect(fileKind(png(12, 7))).toBe('png');
    expect(fileKind(await rgb.clone().webp().toBuffer())).toBe('webp');
    expect(fileKind(Buffer.from(await pdf()))).toBe('pdf');
    expect(fileKind(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('%PDF-1.7\n')]))).toBe('pdf');
  });

  it('knows nothing of other formats, text or an empty file', async () => {
    const rgb = sharp({ create: { width: 4, height: 4, channels: 3, background: '#808080' } });
    expect(fileKind(await rgb.clone().gif().toBuffer())).toBeUndefined();
    expect(fileKind(await rgb.clone().tiff().toBuffer())).toBeUndefined();
    expect(fileKind(Buffer.from('hello, %PDF'))).toBeUndefined();
    expect(fileKind(new Uint8Array(0))).toBeUndefined();
  });

  it('answers undefined, not an exception, for a PNG signature with an impossible header', () => {
    const broken = Buffer.from(png(4, 4));
    broken.write('XXXX', 12, 'latin1'); // the IHDR chunk name
    expect(fileKind(broken)).toBeUndefined();
  });

  it('reads the dimensions from the header', async () => {
    expect(imageDimensions('png', png(30, 20))).toEqual({ width: 30, height: 20 });
    const jpeg = await sharp({ create: { width: 33, height: 17, channels: 3, background: '#000' } }).jpeg().toBuffer();
    expect(imageDimensions('jpg', jpeg)).toEqual({ width: 33, height: 17 });
  });
});
