import sharp from 'sharp';
import { OfflineExtractor, type OfflineEngines } from '../../../src/adapters/offline/extractor';
import type { ExpectedData } from '../../../src/domain/entities';
import type { BlobStore } from '../../../src/ports/blob-store';
import type { ExtractionInput } from '../../../src/ports/extractor';

/**
 * The proof-of-address path of the offline extractor with an OCR engine that "sees" given lines at
 * given places, one list per part of the page read (upper, then lower): only the decisions are under
 * test (which parts are read, which block is reported, what expected data may change).
 */
const page = sharp({ create: { width: 1000, height: 1300, channels: 3, background: '#ffffff' } }).png().toBuffer();
/** A line at (x, y), 10 pixels a character, its top edge sloping by `slope` pixels a pixel. */
type Line = [x: number, y: number, text: string, slope?: number];

function extractor(parts: Line[][]): { extractor: OfflineExtractor; reads: () => number } {
  let read = 0;
  let current: Line[] = [];
  const blobs = { get: async () => new Uint8Array(await page) } as unknown as BlobStore;
  const engines: OfflineEngines = {
    sharp: async () => sharp,
    paddle: async () => ({
      detect: async () => [],
      lines: async () => {
        current = parts[read++] ?? [];
        return current.map(([x, y, text, slope = 0]) => {
          const w = 10 * text.length;
          return { box: [[x, y], [x + w, y + w * slope], [x + w, y + w * slope + 18], [x, y + 18]] as [number, number][], image: { width: 1, height: 1 } };
        });
      },
      readCrops: async (crops) => crops.map((_, i) => current[i]?.[2] ?? ''),
    }),
    tesseract: async () => { throw new Error('not used'); },
    zxing: async () => async () => [],
    pdfText: async () => [],
    faces: async () => { throw new Error('not used'); },
  };
  return { extractor: new OfflineExtractor(blobs, engines), reads: () => read };
}

const input = (expected: ExpectedData | null = null): ExtractionInput => ({
  contextType: 'PROOF_OF_ADDRESS',
  documentType: { id: 4, name: 'Utility Bill' },
  country: 'USA',
  front: { key: 'front', contentType: 'image/png' },
  back: null,
  compareWith: null,
  expected,
});

const upper: Line[] = [
  [60, 40, 'NORTHWIND ENERGY'], [600, 120, 'Statement date: 11/02/2026'],
  [60, 300, 'Anna Smith'], [600, 300, 'Questions? 1-800-555-0199'],
  [60, 322, '12 Main St'], [60, 344, 'Austin, TX 78701'],
];
const lower: Line[] = [[60, 100, 'Remit to: Northwind Energy'], [60, 122, 'PO Box 4000'], [60, 144, 'Dallas, TX 75201']];

describe('offline extractor: proof of address', () => {
  it('reports the holder\'s block of the upper half, untrusted, and reads no further', async () => {
    const { extractor: x, reads } = extractor([upper, lower]);
    const { data, confidence } = await x.extract(input());
    expect(data.person.full_name).toBe('ANNA SMITH');
    expect(data.address).toMatchObject({ street: '12 MAIN ST', city: 'AUSTIN', state: 'TX', zip: '78701' });
    expect(confidence['address.zip']).toBeLessThan(0.6);
    expect(reads()).toBe(1);
  });

  it('reads the lower half when the upper one shows no address block, and never takes a remittance address', async () => {
    const { extractor: x, reads } = extractor([upper.slice(0, 2), lower]);
    const { data } = await x.extract(input());
    expect(reads()).toBe(2);
    expect(data.address.zip).toBe('');
    expect(data.document.identified).toBe('false');
  });

  it('levels a page photographed askew and detects its lines again before reading them', async () => {
    const askew = upper.map(([x, y, text]): Line => [x, y + x * 0.09, text, 0.09]);
    const { extractor: x, reads } = extractor([askew, upper, lower]);
    const { data } = await x.extract(input());
    expect(reads()).toBe(2);
    expect(data.address).toMatchObject({ street: '12 MAIN ST', zip: '78701' });
  });

  it('with expected data, reports what the page says, never the expected values', async () => {
    const expected: ExpectedData = {
      person: { first_name: 'Brian', last_name: 'Jones', date_of_birth: '1980-01-01' },
      address: { street: '98 Oak Avenue', city: 'Denver', state: 'CO', postal_code: '80202', country: 'USA' },
      documents: { photo_id: { type: 'Passport', number: 'X1', country: 'USA' }, proof_of_address: { type: 'Utility Bill', number: '', country: 'USA' } },
    };
    const { extractor: x } = extractor([upper, lower]);
    const { data } = await x.extract(input(expected));
    const reported = JSON.stringify(data).toUpperCase();
    for (const value of ['BRIAN', 'JONES', 'OAK AVENUE', 'DENVER', '80202']) expect(reported).not.toContain(value);
    // What the page does print is found when it is expected.
    const own = await extractor([upper, lower]).extractor.extract(input({ ...expected, person: { ...expected.person, first_name: 'Anna', last_name: 'Smith' }, address: { ...expected.address, street: '12 Main St', postal_code: '78701' } }));
    expect(own.data.person.full_name).toBe('ANNA SMITH');
    expect(own.data.address).toMatchObject({ street: '12 MAIN ST', zip: '78701' });
  });
});
