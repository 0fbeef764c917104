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

describe('the header readers, against the image-size handlers they replace', () => {
  // image-size stays installed for this comparison only (no function bundles it).
  const { JPG } = require('image-size/types/jpg') as typeof import('image-size/types/jpg');
  const { PNG } = require('image-size/types/png') as typeof import('image-size/types/png');
  const { WEBP } = require('image-size/types/webp') as typeof import('image-size/types/webp');
  const theirs = { jpg: JPG, png: PNG, webp: WEBP };
  type Kind = 'jpg' | 'png' | 'webp';
  /** What a reader says of these bytes: their kind, and the size it reads or that it cannot. */
  const reading = (bytes: Uint8Array, kindOf: (b: Uint8Array) => Kind | undefined, calculate: (k: Kind, b: Uint8Array) => { width?: number; height?: number }) => {
    // Each in its own buffer, so that neither reads past the end into a shared one.
    const own = Uint8Array.from(bytes);
    const kind = kindOf(own);
    if (!kind) return 'none';
    try {
      const { width = 0, height = 0 } = calculate(kind, own);
      return `${kind} ${width}x${height}`;
    } catch {
      return `${kind} unreadable`;
    }
  };
  /** image-size's handlers under fileKind's rule: the first whose validate accepts the first 64 bytes; one that throws means none. */
  const reference = (bytes: Uint8Array) =>
    reading(
      bytes,
      (b) => {
        try {
          return (['jpg', 'png', 'webp'] as const).find((k) => theirs[k].validate(b.subarray(0, 64)));
        } catch {
          return undefined;
        }
      },
      (k, b) => theirs[k].calculate(b),
    );
  const ours = (bytes: Uint8Array) =>
    reading(
      bytes,
      (b) => {
        const kind = fileKind(b);
        return kind === 'pdf' ? undefined : kind;
      },
      (k, b) => imageDimensions(k, b),
    );

  it('agree on every format, size and encoding, and on each file cut short or with a byte changed', async () => {
    const files: Buffer[] = [png(30, 20), png(1, 4000)];
    for (const [width, height] of [[33, 17], [1, 1], [640, 480], [16383, 2]] as const) {
      const image = sharp({ create: { width, height, channels: 3, background: '#336699' } });
      files.push(await image.clone().jpeg().toBuffer(), await image.clone().jpeg({ progressive: true }).toBuffer());
      files.push(await image.clone().webp().toBuffer(), await image.clone().webp({ lossless: true }).toBuffer());
      files.push(await image.clone().png().toBuffer());
      // An alpha channel and EXIF metadata: WebP's extended header, JPEG's APP1 segment before the frame.
      files.push(await image.clone().ensureAlpha(0.5).webp().toBuffer(), await image.clone().withMetadata({ orientation: 6 }).jpeg().toBuffer());
    }
    let random = 1;
    const next = () => (random = (random * 1103515245 + 12345) % 2 ** 31);
    let compared = 0;
    for (const file of files) {
      const variants: Uint8Array[] = [file];
      for (const cut of [0, 1, 2, 3, 8, 12, 16, 20, 24, 26, 28, 30, 40, 64, 200]) variants.push(file.subarray(0, cut));
      // Every header byte set to values the readers branch on; every JPEG marker changed to another.
      for (let i = 0; i < 40; i++) {
        for (const value of [0x00, 0x01, 0x2f, 0x40, 0x80, 0x9d, 0xc1, 0xff]) {
          const changed = Buffer.from(file);
          changed[i] = value;
          variants.push(changed);
        }
      }
      for (let i = 1; i < Math.min(file.length, 2000); i++) {
        if (file[i - 1] !== 0xff || file[1] !== 0xd8) continue;
        for (const marker of [0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc9, 0xda, 0xe1, 0x00]) {
          const changed = Buffer.from(file);
          changed[i] = marker;
          variants.push(changed);
        }
      }
      for (let i = 0; i < 60; i++) {
        const changed = Buffer.from(file);
        changed[next() % Math.min(changed.length, 400)] = next() % 256;
        variants.push(changed);
      }
      for (const bytes of variants) {
        expect([file.length, bytes.length, ours(bytes)]).toEqual([file.length, bytes.length, reference(bytes)]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(2000);
  });
});
