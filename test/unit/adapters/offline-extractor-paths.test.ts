import sharp from 'sharp';
import { identity, random, td1 } from '../../../scripts/documents/identity';
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
