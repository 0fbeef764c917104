import sharp from 'sharp';
import { identity, random, td1, td3 } from '../../../scripts/documents/identity';
import { OfflineExtractor, type OfflineEngines } from '../../../src/adapters/offline/extractor';
import type { ExpectedData } from '../../../src/domain/entities';
import type { BlobStore } from '../../../src/ports/blob-store';
import type { ExtractionInput } from '../../../src/ports/extractor';

/**
 * Which reading paths the offline extractor takes, with the OCR engine replaced by one that "sees"
 * given text lines on any image (no model is loaded): only the decision logic is under test.
 */
const png = sharp({ create: { width: 640, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer();

function extractor(pageLines: string[]): OfflineExtractor {
  const blobs = { get: async () => new Uint8Array(await png) } as unknown as BlobStore;
  const engines: OfflineEngines = {
    sharp: async () => sharp,
    // Nothing detected as MRZ-shaped at the detection scale; the full-page read gives the lines.
    paddle: async () => ({ lines: async () => [], readCrops: async () => [], detect: async () => pageLines.map((text, i) => ({ text, box: [[0, i * 20], [600, i * 20], [600, i * 20 + 15], [0, i * 20 + 15]] as [number, number][], mean: 0.9 })) }),
    tesseract: async () => ({ setParameters: async () => undefined, recognize: async () => ({ data: { text: '' } }) }) as never,
    zxing: async () => async () => [],
    pdfText: async () => [],
    faces: async () => {
      throw new Error('no faces here');
    },
  };
  return new OfflineExtractor(blobs, engines, () => new Date('2026-01-15T00:00:00Z'));
}

const input = (country: string, name: string, back: boolean, expected: ExpectedData | null = null): ExtractionInput => ({
  contextType: 'PHOTO_ID',
  documentType: { id: 1, name },
  country,
  front: { key: 'front', contentType: 'image/png' },
  back: back ? { key: 'back', contentType: 'image/png' } : null,
  compareWith: null,
  expected,
});

describe('offline extractor: reading paths decided by the image, not the country', () => {
  it('reads the MRZ of a US passport card', async () => {
    const person = identity(random(11), { nationality: 'USA' });
    const { data } = await extractor(['PASSPORT CARD', ...td1(person)]).extract(input('USA', 'ID Card', false));
    expect(data.document.number).toBe(person.documentNumber);
    expect(data.person.surname).toBe(person.surname);
    expect(data.document.country_code).toBe('USA');
  });

  it('reads the MRZ on the back of a Canadian document when it carries no barcode', async () => {
    const person = identity(random(12), { nationality: 'CAN' });
    const { data } = await extractor(td1(person)).extract(input('CAN', 'Driver License', true));
    expect(data.document.number).toBe(person.documentNumber);
    expect(data.person.date_of_birth).toBe(person.dateOfBirth);
  });
});

describe('offline extractor: expected data guides the search, never what is reported', () => {
  const holder = identity(random(21), { place: 'US', nationality: 'USA', numberFormat: 'dl' });
  const decoy = identity(random(22), { place: 'US', nationality: 'USA', numberFormat: 'dl' });
  const mdy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
  /** The printed front of the holder's licence, as OCR would give it. */
  const front = [
    'DRIVER LICENSE', `DL ${holder.documentNumber}`, `EXP ${mdy(holder.expirationDate)}`, `LN ${holder.surname}`, `FN ${holder.givenNames}`,
    holder.street, `${holder.place.city}, ${holder.place.state} ${holder.place.zip}`, `DOB ${mdy(holder.dateOfBirth)}`, `ISS ${mdy(holder.issueDate)}`,
  ];
  const expected: ExpectedData = {
    person: { first_name: decoy.givenNames, last_name: decoy.surname, date_of_birth: decoy.dateOfBirth },
    address: { street: decoy.street, city: decoy.place.city, state: decoy.place.state, postal_code: decoy.place.zip, country: 'USA' },
    documents: { photo_id: { type: 'Driver License', number: decoy.documentNumber, country: 'USA' }, proof_of_address: { type: 'Utility Bill', number: '', country: 'USA' } },
  };

  it("never reports another person's expected values found nowhere on the document", async () => {
    const { data } = await extractor(front).extract(input('USA', 'Driver License', false, expected));
    const reported = Object.values(data).flatMap((group) => Object.values(group as Record<string, string>)).filter(Boolean).map((v) => v.toUpperCase());
    const printed = front.join(' ').toUpperCase();
    const decoyValues = [decoy.surname, decoy.givenNames, decoy.dateOfBirth, decoy.documentNumber, decoy.street, decoy.place.city, decoy.place.zip]
      .map((v) => v.toUpperCase())
      .filter((v) => !printed.includes(v));
    expect(decoyValues.length).toBeGreaterThan(0);
    for (const value of decoyValues) expect(reported.filter((r) => r.includes(value))).toEqual([]);
  });

  it("does report the holder's own values from the same printed search (the decoy test is not vacuous)", async () => {
    const own: ExpectedData = { ...expected, person: { first_name: holder.givenNames, last_name: holder.surname, date_of_birth: holder.dateOfBirth } };
    const { data } = await extractor(front).extract(input('USA', 'Driver License', false, own));
    expect(data.person.surname).toBe(holder.surname);
  });
});

describe('offline extractor: the page geometry tried when no MRZ is found as the page comes', () => {
  type Box = [number, number][];
  const box = (x: number, y: number, w: number, h: number, slant = 0): Box => {
    const dy = Math.tan((slant * Math.PI) / 180) * w;
    return [[x, y], [x + w, y + dy], [x + w, y + dy + h], [x, y + h]];
  };
  /** An OCR engine whose detector finds, on a page of a given size, the boxes `find` says; every line it reads gives the MRZ's next line. */
  function page(width: number, height: number, mrz: string[], find: (size: { width: number; height: number }) => Box[], seen: { width: number; height: number }[]): OfflineExtractor {
    const image = sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const blobs = { get: async () => new Uint8Array(await image) } as unknown as BlobStore;
    const engines: OfflineEngines = {
      sharp: async () => sharp,
      paddle: async () => ({
        lines: async (png: Buffer) => {
          const { width: w = 0, height: h = 0 } = await sharp(png).metadata();
          seen.push({ width: w, height: h });
          return find({ width: w, height: h }).map((b) => ({ box: b, image: { width: w, height: h } }));
        },
        readCrops: async (crops: Buffer[]) => mrz.slice(0, crops.length),
        detect: async () => [],
      }),
      tesseract: async () => ({ setParameters: async () => undefined, recognize: async () => ({ data: { text: '' } }) }) as never,
      zxing: async () => async () => [],
      pdfText: async () => [],
      faces: async () => {
        throw new Error('no faces here');
      },
    };
    return new OfflineExtractor(blobs, engines, () => new Date('2026-01-15T00:00:00Z'));
  }
  const person = identity(random(31), { nationality: 'FRA' });
  const level = ({ width, height }: { width: number; height: number }): Box[] => [box(20, height - 80, width - 40, 20), box(20, height - 50, width - 40, 20)];

  it('turns a page whose detected lines stand upright a quarter, and reads its MRZ', async () => {
    const seen: { width: number; height: number }[] = [];
    const upright = (size: { width: number; height: number }) => (size.height > size.width ? [box(40, 40, 20, 500), box(80, 40, 20, 500), box(300, 60, 18, 300)] : level(size));
    const { data, confidence } = await page(400, 640, td3(person), upright, seen).extract(input('FRA', 'Passport', false));
    expect(seen[0]!.height).toBeGreaterThan(seen[0]!.width);
    expect(seen.at(-1)!.width).toBeGreaterThan(seen.at(-1)!.height);
    expect(data.document.number).toBe(person.documentNumber);
    expect(confidence['document.number']).toBeGreaterThanOrEqual(0.9);
  });

  it('levels a page whose long lines slant, and reads its MRZ there', async () => {
    const seen: { width: number; height: number }[] = [];
    // Turned by 15°, the page grows; its lines then lie level and the detector finds the MRZ.
    const slanted = (size: { width: number; height: number }) => (size.width === 640 ? [box(20, 40, 400, 20, 15), box(20, 100, 400, 20, 15), box(20, 160, 380, 20, 15)] : level(size));
    const { data } = await page(640, 400, td3(person), slanted, seen).extract(input('FRA', 'Passport', false));
    expect(seen.length).toBe(2);
    expect(data.document.number).toBe(person.documentNumber);
  });

  it('reads the whole page when the lines taken for the MRZ read as none (most check digits failing)', async () => {
    const [names, data] = td3(person) as [string, string];
    const blobs = { get: async () => new Uint8Array(await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#ffffff' } }).png().toBuffer()) } as unknown as BlobStore;
    const engines: OfflineEngines = {
      sharp: async () => sharp,
      paddle: async () => ({
        lines: async () => level({ width: 800, height: 500 }).map((b) => ({ box: b, image: { width: 800, height: 500 } })),
        // Text below the document, of the MRZ's alphabet and length, read where the MRZ was expected.
        readCrops: async (crops: Buffer[]) => ['P<UTOSOMEWHERE<<ELSE'.padEnd(44, '<'), `AB1234567X${data.slice(10, 28)}XXXXXXXXXXXXXXXX`].slice(0, crops.length),
        // The page read whole (1400 px wide) shows the MRZ; the area around the lines taken, read larger, shows nothing more.
        detect: async (png: Buffer) => ((await sharp(png).metadata()).width === 1400 ? ['PRINTED PAGE TEXT', names, data] : []).map((text, i) => ({ text, mean: 0.9, box: box(0, i * 30, 800, 20) })),
      }),
      tesseract: async () => ({ setParameters: async () => undefined, recognize: async () => ({ data: { text: '' } }) }) as never,
      zxing: async () => async () => [],
      pdfText: async () => [],
      faces: async () => {
        throw new Error('no faces here');
      },
    };
    const { data: read, confidence } = await new OfflineExtractor(blobs, engines, () => new Date('2026-01-15T00:00:00Z')).extract(input('FRA', 'Passport', false));
    expect(read.document.number).toBe(person.documentNumber);
    expect(confidence['document.number']).toBeGreaterThanOrEqual(0.9);
  });

  it('detects a small image again enlarged when nothing MRZ-shaped is found at its size', async () => {
    const seen: { width: number; height: number }[] = [];
    const { data } = await page(380, 260, td3(person), (size) => (size.width >= 800 ? level(size) : []), seen).extract(input('FRA', 'Passport', false));
    expect(seen.map((s) => s.width)).toEqual([380, 800]);
    expect(data.document.number).toBe(person.documentNumber);
  });
});
