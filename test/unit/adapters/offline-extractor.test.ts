import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import thresholds from '../../../config/rules.json';

/**
 * The offline extractor on a fixed set of generated documents, one or two per kind and condition,
 * with exact expected fields. The engines load ES modules jest cannot, so the extraction runs in a
 * plain Node process (scripts/documents/extract-samples.ts) and this test reads its JSON lines.
 */
const ROOT = join(__dirname, '..', '..', '..');
const CASES = [
  'passport:clean:1', 'passport:scanned:2', 'passport:photographed:3',
  'id-card:scanned:4', 'id-card:photographed:5',
  'driver-license:scanned:6', 'driver-license:photographed:7',
  'utility-bill:photographed:8', 'bank-statement:scanned:9', 'utility-bill-pdf:clean:10',
  // Pages photographed sideways, upside down, slanted and turned steeply, with no EXIF tag to say so.
  'passport:clean:1:turn90', 'passport:clean:1:turn180', 'passport:clean:1:turn-12', 'passport:clean:1:turn-60',
];
/**
 * Different photographs of the same person (../shared/faces, read in place): the first printed as the
 * passport portrait, the second as the selfie. Genuine pairs of two sources' styles, and impostor pairs.
 */
const SAME = ['selfie:pair:obama-1.jpg:obama-2.jpg', 'selfie:pair:daryl-1.jpg:daryl-3.jpg', 'selfie:pair:p02-1.jpg:p02-3.jpg'];
const OTHER = ['selfie:pair:obama-1.jpg:biden-2.jpg', 'selfie:pair:daryl-1.jpg:rick-2.jpg', 'selfie:pair:p02-1.jpg:p01-3.jpg'];

let results: Record<string, any>;
beforeAll(() => {
  const out = execFileSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'documents', 'extract-samples.ts'), ...CASES, ...SAME, ...OTHER], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 240_000 });
  results = Object.fromEntries(out.trim().split('\n').map((line) => { const r = JSON.parse(line); return [r.case, r]; }));
}, 300_000);

describe('offline extractor on generated documents', () => {
  it.each(CASES)('reads every scored field of %s exactly, with no confident mistake', (c) => {
    const r = results[c];
    const wrong = Object.entries(r.score.fields).filter(([, f]: [string, any]) => !f.correct).map(([k]) => k);
    expect(wrong).toEqual([]);
    expect(r.score.confidentlyWrong).toEqual([]);
    expect(r.data.document.identified).toBe('true');
    expect(Object.values(r.data).every((group: any) => Object.values(group).every((v) => typeof v === 'string'))).toBe(true);
  });

  it('fills the spec fields of a passport from its MRZ, with high confidence where check digits hold', () => {
    const r = results['passport:clean:1'];
    expect(r.data.person).toEqual({ surname: r.identity.surname, given_names: r.identity.givenNames, full_name: `${r.identity.givenNames} ${r.identity.surname}`, date_of_birth: r.identity.dateOfBirth });
    expect(r.data.document).toMatchObject({ type: 'Passport', number: r.identity.documentNumber, expiration_date: r.identity.expirationDate, country_code: r.identity.nationality });
    expect(r.confidence['document.number']).toBeGreaterThanOrEqual(0.9);
    expect(r.confidence['person.date_of_birth']).toBeGreaterThanOrEqual(0.9);
  });

  it.each([
    ['utility-bill:photographed:8', 'ocr', 0.55],
    ['bank-statement:scanned:9', 'ocr', 0.55],
    ['utility-bill-pdf:clean:10', 'pdf_text', 0.95],
  ])('reads the statement date of %s for the proof-of-address age rule, trusted only from a text layer', (c, source, confidence) => {
    const r = results[c];
    expect(r.billDate).toMatch(/^2026-10-\d{2}$/);
    expect(r.readings).toEqual([{ field: 'document.issue_date', value: r.billDate, source }]);
    expect(r.confidence['document.issue_date']).toBe(confidence);
  });

  it('reads a licence address from its PDF417 barcode', () => {
    const r = results['driver-license:photographed:7'];
    expect(r.data.address).toMatchObject({ street: r.identity.street, city: r.identity.place.city, state: r.identity.place.state, zip: r.identity.place.zip, country: 'USA' });
  });

  it.each(SAME)('never rejects a different photograph of the passport holder: %s', (c) => {
    const r = results[c];
    expect(r.data.document.has_selfie).toBe('true');
    expect(r.confidence['faces.selfie.count']).toBe(1);
    expect(r.confidence['faces.document.count']).toBe(1);
    expect(Number(r.data.document.selfie_comparison)).toBeGreaterThanOrEqual(thresholds.selfie_similarity.review);
  });

  it.each(SAME)("gives the selfie face's 128-D descriptor and Human's presentation-attack scores: %s", (c) => {
    const r = results[c];
    expect(r.face).toEqual({ model: 'face-api:dlib-resnet128:euclidean', descriptor: expect.any(Array) });
    expect(r.face.descriptor).toHaveLength(128);
    for (const key of ['faces.selfie.real', 'faces.selfie.live']) {
      expect(r.confidence[key]).toBeGreaterThanOrEqual(0);
      expect(r.confidence[key]).toBeLessThanOrEqual(1);
    }
  });

  it.each(OTHER)("never passes another person's photograph: %s", (c) => {
    expect(Number(results[c].data.document.selfie_comparison)).toBeLessThan(thresholds.selfie_similarity.pass);
  });

  it('scores every same-person pair above every different-person pair of the same portrait', () => {
    SAME.forEach((same, i) => {
      expect(Number(results[same].data.document.selfie_comparison)).toBeGreaterThan(Number(results[OTHER[i] as string].data.document.selfie_comparison));
    });
  });
});
