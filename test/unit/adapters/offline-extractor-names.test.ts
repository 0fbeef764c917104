import sharp from 'sharp';
import { identity, random, td3 } from '../../../scripts/documents/identity';
import { OfflineExtractor, type OfflineEngines } from '../../../src/adapters/offline/extractor';
import type { BlobStore } from '../../../src/ports/blob-store';

/** A passport page whose detector finds the two MRZ lines and nothing else; PaddleOCR reads `names` for the names line every time, tesseract.js `other`. */
function extractor(names: string, data: string, other: string): OfflineExtractor {
  const image = sharp({ create: { width: 800, height: 560, channels: 3, background: '#ffffff' } }).png().toBuffer();
  const blobs = { get: async () => new Uint8Array(await image) } as unknown as BlobStore;
  const box = (y: number): [number, number][] => [[20, y], [780, y], [780, y + 20], [20, y + 20]];
  const engines: OfflineEngines = {
    sharp: async () => sharp,
    paddle: async () => ({
      lines: async () => [box(480), box(515)].map((b) => ({ box: b, image: { width: 800, height: 560 } })),
      readCrops: async (crops: Buffer[]) => (crops.length === 2 ? [names, data] : [names]),
      detect: async () => [],
    }),
    tesseract: async () => ({ setParameters: async () => undefined, recognize: async () => ({ data: { text: other, confidence: 80 } }) }),
    zxing: async () => async () => [],
    pdfText: async () => [],
    faces: async () => {
      throw new Error('no faces here');
    },
  };
  return new OfflineExtractor(blobs, engines, () => new Date('2026-01-15T00:00:00Z'));
}

const input = { contextType: 'PHOTO_ID' as const, documentType: { id: 1, name: 'Passport' }, country: 'CAN', front: { key: 'f', contentType: 'image/png' }, back: null, compareWith: null, expected: null };

describe('offline extractor: MRZ names trusted only with independent support', () => {
  const person = { ...identity(random(1014), { nationality: 'CAN' }), surname: 'VAN DER BERG', givenNames: 'SOFIA' };
  const [names, data] = td3(person);
  const misread = names.replace('SOFIA', 'SOFA<');

  it('does not trust names every PaddleOCR read misread alike (the font the cause) when no other source gives them', async () => {
    const { data: got, confidence } = await extractor(misread, data, '').extract(input);
    expect(got.person.given_names).toBe('SOFA'); // no printed zone on this page
    expect(confidence['person.given_names']).toBeLessThan(0.6);
    expect(confidence['person.full_name']).toBeLessThan(0.6);
    expect(confidence['document.number']).toBe(0.99);
  });

  it('trusts names tesseract.js reads alike (another engine)', async () => {
    const { confidence } = await extractor(names, data, `${names.slice(0, 26)}KKCL${names.slice(30)}`).extract(input);
    expect(confidence['person.given_names']).toBe(0.95);
    expect(confidence['person.surname']).toBe(0.95);
  });
});
