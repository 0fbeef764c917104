import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addBuckets, bucketsOf, supportedThreshold } from '../../../scripts/bench/reliability';
import { fieldCorrect } from '../../../scripts/bench/specimens';

describe('extraction bench scoring', () => {
  it('compares names accent- and case-insensitively, dates exactly, and the issuing state as printed or as its alpha-3', () => {
    expect(fieldCorrect('person.surname', 'MARIA', 'MARÍA')).toBe(true);
    expect(fieldCorrect('person.surname', '', '')).toBe(false);
    expect(fieldCorrect('person.date_of_birth', '1984-12-07', '1984-12-07')).toBe(true);
    expect(fieldCorrect('person.date_of_birth', '2012-12-12', '1912-12-12')).toBe(false);
    expect(fieldCorrect('document.country_code', 'DEU', 'D')).toBe(true);
    expect(fieldCorrect('document.country_code', 'D', 'D')).toBe(true);
    expect(fieldCorrect('document.country_code', 'UTD', 'D')).toBe(false);
    expect(fieldCorrect('address.street', '1OO MAIN STREET', '100 MAIN STREET')).toBe(false);
    expect(fieldCorrect('barcode.text', 'A\u001dB', 'A\u001dB ')).toBe(false);
  });

  it('buckets confidences and finds the lowest edge above which every reported field was right', () => {
    const table = bucketsOf([
      { confidence: 0.5, correct: false },
      { confidence: 0.76, correct: false },
      { confidence: 0.85, correct: true },
      { confidence: 0.99, correct: true },
      { confidence: 1, correct: true },
    ]);
    expect(table.find((b) => b.bucket === '[0.7, 0.8)')).toMatchObject({ count: 1, correct: 0, accuracy: 0 });
    expect(table.find((b) => b.bucket === '[0.99, 1]')).toMatchObject({ count: 2, accuracy: 100 });
    expect(supportedThreshold(table).threshold).toBe(0.8);
    expect(addBuckets(table, table).find((b) => b.from === 0.99)?.count).toBe(4);
  });

  it('lists every specimen of the shared set with a kind, a condition class, truth and a sha256, and no file inside the repository', () => {
    const { documents } = JSON.parse(readFileSync(join(__dirname, '../../../bench/specimens.json'), 'utf8')) as { documents: { file: string; kind: string; condition: string; truth: Record<string, string>; sha256: string; licence: string }[] };
    expect(documents.length).toBe(50);
    for (const d of documents) {
      expect(d.file.startsWith('../shared/specimens/images/')).toBe(true);
      expect(['passport', 'id_card', 'driver_license', 'proof_of_address', 'barcode']).toContain(d.kind);
      expect(['flat', 'photo', 'rotated', 'perspective', 'low-resolution', 'defaced', 'pdf']).toContain(d.condition);
      expect(Object.keys(d.truth).length).toBeGreaterThan(0);
      expect(d.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(d.licence).not.toBe('');
    }
  });
});

describe('degradations of the generated set', () => {
  it('shows a passport page as the lower half of an open booklet, and sprinkles print noise over its lower third only', async () => {
    const { generateDocument } = await import('../../../scripts/documents/generate');
    const sharp = (await import('sharp')).default;
    const clean = await sharp((await generateDocument('passport', 'clean', 3)).front).metadata();
    const booklet = await sharp((await generateDocument('passport', 'open-booklet', 3)).front).metadata();
    // Two pages and the backdrop around them: much taller, relative to its width, than the page alone.
    expect((booklet.height ?? 0) / (booklet.width ?? 1)).toBeGreaterThan(((clean.height ?? 0) / (clean.width ?? 1)) * 1.4);
    const [cleanPixels, noisy] = await Promise.all(
      [generateDocument('passport', 'clean', 3), generateDocument('passport', 'filler-noise', 3)].map(async (d) =>
        sharp((await d).front).resize({ width: 300, height: 210, fit: 'fill' }).grayscale().raw().toBuffer(),
      ),
    );
    const changedRows = new Set<number>();
    for (let i = 0; i < cleanPixels!.length; i++) if (Math.abs(cleanPixels![i]! - noisy![i]!) > 60) changedRows.add(Math.floor(i / 300));
    expect(changedRows.size).toBeGreaterThan(10);
    expect(Math.min(...changedRows)).toBeGreaterThanOrEqual(Math.floor(210 * 0.6));
  }, 60_000);
});
