import sharp from 'sharp';
import { MAX_PDF_INFLATED_BYTES, MAX_PDF_PAGES, MAX_PNG_METADATA_BYTES } from '../../../src/domain/file-checks';
import { decodeImage, MAX_IMAGE_SIDE } from '../../../src/app/images';
import { BadRequestError } from '../../../src/domain/errors';
import { activeContentPdf, bigFlatPng, headerOnlyPng, pdfInflateBomb, pdfJunk, pngZtxtBomb, rawPdf } from '../../fixtures/hostile-files';
import { pdf, png } from '../../fixtures/images';

/** A PNG whose header claims a size its (tiny) data does not have: what a decompression bomb looks like before decoding. */
function pngClaiming(width: number, height: number): Buffer {
  const b = Buffer.from(png(2, 2));
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

const decode = (bytes: Buffer, context: 'PHOTO_ID' | 'PROOF_OF_ADDRESS' = 'PHOTO_ID') => decodeImage('document.front_side_data', bytes.toString('base64'), context);

/** A photo-like image (noise) so that encoders produce real entropy-coded data. */
const noise = (width: number, height: number) => {
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
  return sharp(data, { raw: { width, height, channels: 3 } });
};

describe('image checks before decoding', () => {
  it('accepts a normal image and detects its type from the bytes', async () => {
    await expect(decode(png(30, 20))).resolves.toMatchObject({ contentType: 'image/png', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('refuses images whose header claims too many pixels', async () => {
    await expect(decode(pngClaiming(MAX_IMAGE_SIDE + 1, 10))).rejects.toThrow(/10001×10 pixels; the limit is 10000 pixels a side/);
    await expect(decode(pngClaiming(9000, 9000))).rejects.toThrow(/40 megapixels/);
  });

  it('refuses truncated images and a data URL with junk', async () => {
    await expect(decode(png(30, 20).subarray(0, 20))).rejects.toThrow(BadRequestError);
    await expect(decodeImage('f', 'data:image/png;base64,@@@@', 'PHOTO_ID')).rejects.toThrow(/not valid base64/);
  });
});

describe('whole-file checks at the door', () => {
  it('accepts what real encoders write: baseline and progressive JPEG, plain and interlaced PNG of every colour type, lossy and lossless WebP', async () => {
    const images = [
      ['image/jpeg', await noise(97, 61).jpeg().toBuffer()],
      ['image/jpeg', await noise(97, 61).jpeg({ progressive: true }).toBuffer()],
      ['image/jpeg', await noise(97, 61).jpeg({ mozjpeg: true }).withMetadata().toBuffer()],
      ['image/png', await noise(97, 61).png().toBuffer()],
      ['image/png', await noise(97, 61).png({ progressive: true }).toBuffer()],
      ['image/png', await noise(97, 61).greyscale().png({ progressive: true }).toBuffer()],
      ['image/png', await noise(97, 61).ensureAlpha().png().toBuffer()],
      ['image/png', await noise(97, 61).png({ palette: true, colours: 16 }).toBuffer()],
      ['image/png', await noise(3, 5).png({ progressive: true, palette: true, colours: 2 }).toBuffer()],
      ['image/png', await noise(97, 61).toColourspace('rgb16').png().toBuffer()],
      ['image/webp', await noise(97, 61).webp().toBuffer()],
      ['image/webp', await noise(97, 61).webp({ lossless: true }).toBuffer()],
      ['image/webp', await noise(97, 61).ensureAlpha().webp().toBuffer()],
    ] as const;
    for (const [type, bytes] of images) await expect(decode(bytes)).resolves.toMatchObject({ contentType: type });
  });

  it('answers 400 for any image cut short, whatever the cut', async () => {
    const images = [await noise(64, 48).jpeg().toBuffer(), await noise(64, 48).png().toBuffer(), await noise(64, 48).webp().toBuffer(), await noise(64, 48).webp({ lossless: true }).toBuffer()];
    for (const bytes of images) {
      for (const keep of [0.3, 0.6, 0.9, 0.99]) {
        const cut = bytes.subarray(0, Math.floor(bytes.length * keep));
        await expect(decode(cut)).rejects.toThrow(/not a readable image/);
      }
      await expect(decode(bytes.subarray(0, bytes.length - 2))).rejects.toThrow(BadRequestError);
    }
  });

  it('answers 400 for a PNG that is only a header', async () => {
    await expect(decode(headerOnlyPng())).rejects.toThrow(/not a readable image: it is truncated/);
  });

  it('answers 400 for a PNG whose pixel data is corrupt or shorter than its header says', async () => {
    const good = png(16, 16);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 20] = flipped[flipped.length - 20]! ^ 0xff;
    await expect(decode(flipped)).rejects.toThrow(/CRC mismatch/);
    const claimsMore = Buffer.from(png(16, 16));
    claimsMore.writeUInt32BE(17, 20);
    const { crc32 } = await import('node:zlib');
    claimsMore.writeUInt32BE(crc32(claimsMore.subarray(12, 29)) >>> 0, 29);
    await expect(decode(claimsMore)).rejects.toThrow(/shorter than its header says/);
  });

  it('answers 400 for a PNG with a zTXt chunk that inflates past the metadata bound, without inflating it all', async () => {
    const bomb = await pngZtxtBomb(300 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(400 * 1024);
    await expect(decode(bomb)).rejects.toThrow(`its metadata inflates to more than ${MAX_PNG_METADATA_BYTES / 1024 / 1024} MB`);
  });

  it('accepts a 40-megapixel PNG of 170 KB (within the limits; the report shrinks it off the API thread)', async () => {
    const big = await bigFlatPng(8000, 5000);
    expect(big.length).toBeLessThan(200 * 1024);
    await expect(decode(big)).resolves.toMatchObject({ contentType: 'image/png' });
  });

  it('answers 400 for bytes that only start like a PDF', async () => {
    await expect(decode(pdfJunk(), 'PROOF_OF_ADDRESS')).rejects.toThrow(/not a readable PDF: it is truncated \(no trailer\)/);
    await expect(decode(Buffer.from('%PDF-1.4\nstartxref\n0\n%%EOF\n'), 'PROOF_OF_ADDRESS')).rejects.toThrow(/it has no pages/);
  });

  it('answers 400 for a PDF whose content inflates past the bound, counting instead of holding it', async () => {
    const bomb = await pdfInflateBomb(MAX_PDF_INFLATED_BYTES + 1024 * 1024);
    expect(bomb.length).toBeLessThan(200 * 1024);
    await expect(decode(bomb, 'PROOF_OF_ADDRESS')).rejects.toThrow(`its content inflates to more than ${MAX_PDF_INFLATED_BYTES / 1024 / 1024} MB`);
  });

  it('answers 400 for PDFs with too many pages, LZW streams or encryption', async () => {
    const kids = Array.from({ length: MAX_PDF_PAGES + 1 }, (_, i) => `${i + 3} 0 R`).join(' ');
    const many = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [${kids}] /Count ${MAX_PDF_PAGES + 1} >>`,
      ...Array.from({ length: MAX_PDF_PAGES + 1 }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>'),
    ]);
    await expect(decode(many, 'PROOF_OF_ADDRESS')).rejects.toThrow(`more than ${MAX_PDF_PAGES} pages`);
    const lzw = rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>', { dict: '/Filter /LZWDecode', data: Buffer.from([0x80, 0x0b, 0x60, 0x50]) }]);
    await expect(decode(lzw, 'PROOF_OF_ADDRESS')).rejects.toThrow(/LZW or run-length/);
    const encrypted = Buffer.from(pdf().toString('latin1').replace('/Root 1 0 R', '/Root 1 0 R /Encrypt << /Filter /Standard >>'), 'latin1');
    await expect(decode(encrypted, 'PROOF_OF_ADDRESS')).rejects.toThrow(/encrypted/);
  });

  it('accepts real PDFs, including pages in compressed object streams', async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    const page = doc.addPage();
    page.drawText('Electricity bill', { font: await doc.embedFont(StandardFonts.Helvetica) });
    const withObjectStreams = Buffer.from(await doc.save({ useObjectStreams: true }));
    expect(withObjectStreams.toString('latin1')).not.toMatch(/\/Type\s*\/Page[^s]/);
    await expect(decode(withObjectStreams, 'PROOF_OF_ADDRESS')).resolves.toMatchObject({ contentType: 'application/pdf' });
    await expect(decode(Buffer.from(await doc.save({ useObjectStreams: false })), 'PROOF_OF_ADDRESS')).resolves.toMatchObject({ contentType: 'application/pdf' });
    await expect(decode(pdf({ person: {} }), 'PROOF_OF_ADDRESS')).resolves.toMatchObject({ contentType: 'application/pdf' });
    await expect(decode(activeContentPdf(), 'PROOF_OF_ADDRESS')).resolves.toMatchObject({ contentType: 'application/pdf' });
  });
});
