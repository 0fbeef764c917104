import sharp from 'sharp';
import { OfflineExtractor, type OfflineEngines } from '../../../src/adapters/offline/extractor';
import type { ExpectedData } from '../../../src/domain/entities';
import type { BlobStore } from '../../../src/ports/blob-store';
import type { ExtractionInput } from '../../../src/ports/extractor';

/**
 * A front without MRZ or barcode through the offline extractor, with an OCR engine that "sees" given
 * lines (one box a row, read in order), gives `again` for the second read of the rows the fields
 * came from, and `wider` for the rows read again wider (addressAgain, each cut in turn): only the
 * decisions are under test (what is trusted, what expected data may change).
 */
const boxOf = (text: string, i: number): [number, number][] => [[300, 100 + i * 50], [300 + 13 * text.length, 100 + i * 50], [300 + 13 * text.length, 124 + i * 50], [300, 124 + i * 50]];

/** The card, each row's box marked with as many dark bars as its index plus one, so that a crop says which row it was cut from. */
const cardOf = (rows: string[]): Promise<Buffer> =>
  sharp({ create: { width: 1011, height: 638, channels: 3, background: '#ffffff' } })
    .composite(rows.flatMap((_, i) => Array.from({ length: i + 1 }, (_, j) => ({ input: { create: { width: 3, height: 24, channels: 3 as const, background: '#000000' } }, left: 304 + j * 6, top: 100 + i * 50 }))))
    .png()
    .toBuffer();

/** The row a crop was cut from: the dark bars across its middle, less one. */
async function rowOf(crop: Buffer): Promise<number> {
  const { data, info } = await sharp(crop).grayscale().raw().toBuffer({ resolveWithObject: true });
  const y = Math.floor(info.height / 2);
  let bars = 0;
  for (let x = 0, dark = false; x < info.width; x++) {
    const now = (data[y * info.width + x] as number) < 128;
    if (now && !dark) bars++;
    dark = now;
  }
  return bars - 1;
}

/**
 * `other`: what the other engine (tesseract.js) reads on any line crop; by default every row alike.
 * `wider`: an address row read at the `cut`-th wider cut; by default as printed.
 */
function extractor(rows: string[], again: (first: string) => string, other: string = rows.join(' '), wider: (row: string, cut: number) => string = (row) => row): OfflineExtractor {
  const card = cardOf(rows);
  const blobs = { get: async () => new Uint8Array(await card) } as unknown as BlobStore;
  let second: string[] = [];
  let firstRead = true;
  let cut = 0;
  const engines: OfflineEngines = {
    sharp: async () => sharp,
    paddle: async () => ({
      detect: async () => [],
      lines: async () => rows.map((text, i) => ({ box: boxOf(text, i), image: { width: 1011, height: 638 } })),
      readScored: async (crops) => {
        if (firstRead) {
          firstRead = false;
          second = rows.map(again);
          // The first read is of every row in order: the bars say so, or the fake reads wrong.
          const cutFrom = await Promise.all(crops.map(rowOf));
          if (cutFrom.some((row, i) => row !== i)) throw new Error(`the first read's crops decode as rows ${cutFrom.join(',')}`);
          return crops.map((_, i) => ({ text: rows[i] ?? '', mean: 0.95 }));
        }
        // Any later scored read is of rows cut wider (addressAgain): each crop read as the row it was cut from.
        const at = cut++;
        return Promise.all(crops.map(async (crop) => ({ text: wider(rows[await rowOf(crop)] ?? '', at), mean: 0.95 })));
      },
      // The second read: every row holds a field here, so the rows come back in order.
      readCrops: async (crops) => crops.map((_, i) => second[i] ?? ''),
    }),
    tesseract: async () => ({ setParameters: async () => undefined, recognize: async () => ({ data: { text: other } }) }) as never,
    zxing: async () => async () => [],
    pdfText: async () => [],
    faces: async () => {
      throw new Error('not used');
    },
  };
  return new OfflineExtractor(blobs, engines, () => new Date('2026-11-27T00:00:00Z'));
}

const input = (country: string, expected: ExpectedData | null = null): ExtractionInput => ({
  contextType: 'PHOTO_ID',
  documentType: { id: 2, name: 'Driver License' },
  country,
  front: { key: 'front', contentType: 'image/png' },
  back: null,
  compareWith: null,
  expected,
});

const UK = ['1. EVANS', '2. SARAH GRACE', '3. 05.07.1985 UNITED KINGDOM', '4a. 01.02.2020', '4b. 31.01.2030', '5. EVANS857055SG9AB  35', '8. 122 BURNS CRESCENT, EDINBURGH, EH1 9GP'];
const DE = ['1. KOENIG', '2. JONAS', '3. 01.05.1957 KOELN', '4a. 23.10.2022', '4b. 22.10.2037', '5. B072RRE2I55'];

describe('offline extractor: fronts read by their layout, without expected data', () => {
  it('trusts the fields a second read gives alike', async () => {
    const { data, confidence } = await extractor(DE, (t) => t).extract(input('DEU'));
    expect([data.person.surname, data.person.given_names, data.person.date_of_birth, data.document.number, data.document.expiration_date]).toEqual(['KOENIG', 'JONAS', '1957-05-01', 'B072RRE2I55', '2037-10-22']);
    expect(confidence['person.surname']).toBeGreaterThanOrEqual(0.9);
    expect(confidence['document.expiration_date']).toBeGreaterThanOrEqual(0.9);
    expect(data.document.identified).toBe('true');
  });

  it('reports a field the second read contradicts, untrusted', async () => {
    const { data, confidence } = await extractor(DE, (t) => t.replace('KOENIG', 'KOEMIG').replace('2037', '2031')).extract(input('DEU'));
    expect(data.person.surname).toBe('KOENIG');
    expect(confidence['person.surname']).toBe(0.5);
    expect(confidence['document.expiration_date']).toBe(0.5);
    expect(confidence['document.number']).toBeGreaterThanOrEqual(0.9);
  });

  it('trusts the UK number, birth date and a short surname that the number encodes, even without a second read', async () => {
    const { data, confidence } = await extractor(UK, () => '').extract(input('GBR'));
    expect(data.document.number).toBe('EVANS857055SG9AB');
    expect([confidence['document.number'], confidence['person.date_of_birth'], confidence['person.surname']]).toEqual([0.9, 0.9, 0.9]);
    expect([confidence['person.given_names'], confidence['document.expiration_date']]).toEqual([0.5, 0.5]);
    expect([data.address.street, data.address.city, data.address.zip]).toEqual(['122 BURNS CRESCENT', 'EDINBURGH', 'EH1 9GP']);
  });

  it('trusts an address only whole: a part the second read gives alike is not trusted when another part of the same address is not', async () => {
    // Both reads drop the same letters of a blurred address line, and differ on the city only.
    const blurred = UK.map((l) => (l.startsWith('8.') ? '8. 122 BURNSCRESENT, EDINBRGH, H1 9GP' : l));
    // The wider cuts read the street and postal code as the first two did, and the city otherwise again.
    const { data, confidence } = await extractor(blurred, (t) => t.replace('EDINBRGH', 'EDNBRGH'), undefined, (t, cut) => t.replace('EDINBRGH', cut === 0 ? 'EDINBRG' : 'EDNBRG')).extract(input('GBR'));
    expect([data.address.street, data.address.zip]).toEqual(['122 BURNSCRESENT', 'H1 9GP']);
    expect([confidence['address.street'], confidence['address.city'], confidence['address.zip'], confidence['address.full']]).toEqual([0.5, 0.5, 0.5, 0.5]);
    // Read alike in every part, the address is trusted.
    const clean = await extractor(UK, (t) => t).extract(input('GBR'));
    expect([clean.confidence['address.street'], clean.confidence['address.city'], clean.confidence['address.zip']]).toEqual([0.9, 0.9, 0.9]);
  });

  it('trusts no address whose first two reads agree on one value and the wider reads on another', async () => {
    // The first two cuts drop the same letters; both wider cuts read the row whole. (The fake used to
    // answer the wider reads with other rows' text, and the first two reads alone trusted the address.)
    const narrow = UK.map((l) => (l.startsWith('8.') ? '8. 122 BURNSCRESENT, EDINBURGH, EH1 9GP' : l));
    const { data, confidence } = await extractor(narrow, (t) => t, undefined, () => UK[6] as string).extract(input('GBR'));
    expect(data.address.city).toBe('EDINBURGH');
    expect([confidence['address.street'], confidence['address.city'], confidence['address.zip']]).toEqual([0.5, 0.5, 0.5]);
  });

  it('trusts no street or city with a digit between two letters of a word (a misread letter two reads make alike), nor the rest of that address', async () => {
    const misread = UK.map((l) => (l.startsWith('8.') ? '8. 122 BURNS CRES0ENT, EDINBURGH, EH1 9GP' : l));
    const { data, confidence } = await extractor(misread, (t) => t).extract(input('GBR'));
    expect(data.address.street).toBe('122 BURNS CRES0ENT');
    expect([confidence['address.street'], confidence['address.city'], confidence['address.zip']]).toEqual([0.5, 0.5, 0.5]);
  });

  it('trusts a number nothing on the card checks only when the other engine reads it alike too', async () => {
    const US = ['DL J7506667', 'LN SMITH', 'FN JOHN', 'DOB 03/14/1981', 'EXP 03/14/2029'];
    const misread = US.map((l) => l.replace('J7506667', '17506667'));
    // PaddleOCR reads the J as 1 twice; tesseract.js reads the J.
    const { data, confidence } = await extractor(misread, (t) => t, US.join(' ')).extract(input('USA'));
    expect(data.document.number).toBe('17506667');
    expect(confidence['document.number']).toBe(0.5);
    const alike = await extractor(US, (t) => t).extract(input('USA'));
    expect([alike.data.document.number, alike.confidence['document.number']]).toEqual(['J7506667', 0.9]);
  });

  it('trusts no number of letters and digits with the letter O in it, read alike by both engines: O and 0 are one glyph in many card fonts', async () => {
    const FR = ['NOM/Surname', 'DUPONT', 'Prenoms/Given names', 'LUC', 'N DU DOCUMENT/Document No', 'OYSU9ZRT4'];
    const { data, confidence } = await extractor(FR, (t) => t).extract(input('FRA'));
    expect([data.document.number, confidence['document.number']]).toEqual(['OYSU9ZRT4', 0.5]);
  });

  it('trusts no name that begins with a name label run into it, read alike twice', async () => {
    const US = ['DL J7506667', 'LN NOMLEBLANC', 'FN EMMA', 'DOB 03/14/1981', 'EXP 03/14/2029'];
    const { data, confidence } = await extractor(US, (t) => t).extract(input('USA'));
    expect([data.person.surname, confidence['person.surname'], confidence['person.full_name']]).toEqual(['NOMLEBLANC', 0.5, 0.5]);
    expect(confidence['person.given_names']).toBe(0.9);
  });

  it('trusts none of them when the number encodes another birth date', async () => {
    const { confidence } = await extractor(UK.map((l) => l.replace('05.07.1985', '06.07.1985')), () => '').extract(input('GBR'));
    expect([confidence['document.number'], confidence['person.date_of_birth']]).toEqual([0.5, 0.5]);
  });

  it("reports what the front prints, never another person's expected values", async () => {
    const decoy: ExpectedData = {
      person: { first_name: 'JONAS', last_name: 'WEBER', date_of_birth: '1960-01-01' },
      address: { street: '', city: 'KOELN', state: '', postal_code: '', country: 'DEU' },
      documents: { photo_id: { type: '', number: 'X1234567', country: 'DEU' }, proof_of_address: { type: '', number: '', country: 'DEU' } },
    };
    const { data, confidence } = await extractor(DE, () => '').extract(input('DEU', decoy));
    expect([data.person.surname, data.person.date_of_birth, data.document.number, data.address.city]).toEqual(['KOENIG', '1957-05-01', 'B072RRE2I55', '']);
    expect(confidence['person.surname']).toBe(0.5);
    // The given names the client sent are printed where field 2 is: that read agrees with them.
    expect([data.person.given_names, confidence['person.given_names']]).toEqual(['JONAS', 0.9]);
  });
});
