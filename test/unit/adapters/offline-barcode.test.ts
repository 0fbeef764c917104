import bwipjs from 'bwip-js/node';
import sharp from 'sharp';
import { fillLicence, levelAngle, readLicence, tiltOf } from '../../../src/adapters/offline/barcode';
import { parseAamva } from '../../../src/adapters/offline/aamva';
import { sharpModule, zxing } from '../../../src/adapters/offline/engines';
import { emptyExtractedData } from '../../../src/domain/rules';

/** A version 08 Californian licence's AAMVA text (2016 standard layout, as in offline-aamva.test.ts). */
const TEXT = [
  '@\n\x1e\rANSI 636014080102DL00410229ZC02700008DLDAQD1234562', 'DCSSAMPLE', 'DDEN', 'DACJANE', 'DDFN', 'DADQUINN', 'DDGN', 'DCAC', 'DCBNONE', 'DCDNONE',
  'DBD08312013', 'DBB08311977', 'DBA08312028', 'DBC2', 'DAU064 IN', 'DAYBRN', 'DAG2570 24TH STREET', 'DAIANYTOWN', 'DAJCA', 'DAK958250000  ', 'DCGUSA\rZCZCA01\r',
].join('\n');

/** The symbol as a licence back prints it: PDF417, 10 data columns, on a white card (bwip-js, as scripts/documents/render.ts). */
async function symbol(): Promise<Buffer> {
  const options = { bcid: 'pdf417', text: TEXT, columns: 10, rowmult: 5, scale: 3, paddingwidth: 8, paddingheight: 8, backgroundcolor: 'FFFFFF' };
  const png = await bwipjs.toBuffer(options as Parameters<typeof bwipjs.toBuffer>[0]);
  return sharp(png).extend({ top: 120, bottom: 120, left: 60, right: 60, background: '#f2efe6' }).png().toBuffer();
}

/** A photograph of the back: turned by `angle` degrees on a dark desk, `width` pixels wide, JPEG. */
async function photo(angle: number, width?: number): Promise<Buffer> {
  const turned = sharp(await sharp(await symbol()).rotate(angle, { background: '#3d4b5a' }).png().toBuffer());
  return (width ? turned.resize({ width }) : turned).jpeg({ quality: 90 }).toBuffer();
}

/** The image as the extractor prepares it: upright grayscale, scaled to the width asked, contrast stretched. */
async function prepared(bytes: Buffer) {
  const { data, info } = await sharp(bytes).grayscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, png: (w: number) => sharp(data, { raw: info }).resize({ width: w }).normalize().png().toBuffer() };
}

async function read(bytes: Buffer) {
  return readLicence(await sharpModule(), await zxing(), await prepared(bytes));
}

describe('PDF417 licence barcodes under geometry', () => {
  it.each([7, -9, 97, 187])('reads a back turned by %i°', async (angle) => {
    expect(await read(await photo(angle))).toMatchObject({ surname: 'SAMPLE', givenNames: 'JANE QUINN', dateOfBirth: '1977-08-31', number: 'D1234562' });
  });

  it('reads a back photographed at low resolution (about 1.3 pixels per module)', async () => {
    expect((await read(await photo(0, 380)))?.number).toBe('D1234562');
  });

  it('measures a page’s tilt within a degree and a half, modulo the quarter turn', async () => {
    for (const angle of [0, 4, -8, 95]) {
      const tilt = await tiltOf(sharp, await photo(angle));
      expect(Math.abs(tilt - (((angle + 45) % 90) - 45))).toBeLessThan(1.5);
    }
  });

  it('levels a tilted page to within half a degree, and leaves a nearly level one as it is', async () => {
    for (const angle of [9, -6, 187]) expect(Math.abs(((await levelAngle(sharp, await photo(angle))) ?? 0) - (((angle + 45) % 90) - 45))).toBeLessThan(0.5);
    expect(await levelAngle(sharp, await photo(1))).toBeUndefined();
  });
});

describe('licence fields from the barcode', () => {
  it('does not trust a name the barcode flags as truncated, nor the full name made with it', () => {
    const fields = parseAamva(TEXT.replace('DDEN', 'DDET'));
    const data = emptyExtractedData();
    const confidence: Record<string, number> = {};
    fillLicence(data, confidence, fields as NonNullable<typeof fields>);
    expect(data.person.surname).toBe('SAMPLE');
    expect(confidence['person.surname']).toBeLessThan(0.6);
    expect(confidence['person.full_name']).toBeLessThan(0.6);
    expect(confidence['person.given_names']).toBe(0.99);
  });
});
