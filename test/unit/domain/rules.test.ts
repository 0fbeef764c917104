import * as v from 'valibot';
import { emptyExpectedData, mergeExpectedData } from '../../../src/domain/expected-data';
import { decisionStatus, emptyExtractedData, evaluateRules, normalizeName, type RuleInput, similarity } from '../../../src/domain/rules';
import { RuleThresholdsSchema } from '../../../src/domain/rule-thresholds';
import { DocumentStatus } from '../../../src/domain/status';
import thresholdsFile from '../../../config/rules.json';

const thresholds = v.parse(RuleThresholdsSchema, thresholdsFile);
const expected = mergeExpectedData(emptyExpectedData(), {
  person: { first_name: 'José', last_name: 'García-Márquez', date_of_birth: '1980-03-06' },
  address: { street: '12 Rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FRA' },
  documents: { photo_id: { type: 'Passport', number: 'AB 123-456', country: 'FRA' }, proof_of_address: { type: 'Utility Bill', country: 'FRA' } },
});

function photoInput(patch: (x: ReturnType<typeof emptyExtractedData>) => void, confidence: Record<string, number> = {}): RuleInput {
  const x = emptyExtractedData();
  x.document.identified = 'true';
  x.person.given_names = 'JOSE';
  x.person.surname = 'GARCIA MARQUEZ';
  x.person.date_of_birth = '1980-03-06';
  x.document.number = 'AB123456';
  x.document.country_code = 'FRA';
  x.document.expiration_date = '2030-01-01';
  patch(x);
  return { context: 'PHOTO_ID', typeName: 'Passport', country: 'FRA', expected, extracted: x, confidence, today: '2026-11-22' };
}

const resultOf = (input: RuleInput, name: string) => evaluateRules(input, thresholds).results.find((r) => r.name === name);

describe('name normalisation', () => {
  it('ignores case, accents, hyphens, spacing and token order', () => {
    expect(normalizeName('  García-Márquez,  José ')).toBe('garcia jose marquez');
    expect(similarity('José García-Márquez', 'MARQUEZ GARCIA JOSE')).toBe(1);
    expect(similarity('Lovelace', 'Lovelase')).toBeCloseTo(0.875, 3);
  });
});

describe('photo ID rules', () => {
  it('passes a matching document, with numbers compared without separators', () => {
    const report = evaluateRules(photoInput(() => {}), thresholds);
    expect(report.outcome).toBe('passed');
    expect(report.results.map((r) => [r.name, r.result])).toEqual([
      ['person.first_name', 'passed'],
      ['person.last_name', 'passed'],
      ['person.date_of_birth', 'passed'],
      ['document.number', 'passed'],
      ['document.type', 'passed'],
      ['document.country', 'passed'],
      ['document.issuing_country', 'passed'],
      ['document.not_expired', 'passed'],
    ]);
  });

  it('sends a near name match to review and a different name to failed', () => {
    expect(resultOf(photoInput((x) => (x.person.surname = 'GARCIA MARKES')), 'person.last_name')?.result).toBe('review');
    expect(resultOf(photoInput((x) => (x.person.surname = 'SMITH')), 'person.last_name')?.result).toBe('failed');
  });

  it('fails an expired document and reviews a missing expiry', () => {
    expect(resultOf(photoInput((x) => (x.document.expiration_date = '2020-01-01')), 'document.not_expired')).toMatchObject({ result: 'failed', reason: 'expired' });
    expect(resultOf(photoInput((x) => (x.document.expiration_date = '')), 'document.not_expired')?.result).toBe('review');
  });

  it('caps a low-confidence match at review', () => {
    expect(resultOf(photoInput(() => {}, { 'document.number': 0.3 }), 'document.number')).toMatchObject({ result: 'review' });
  });

  it('reviews a low-confidence mismatch instead of rejecting on a possible misread', () => {
    expect(resultOf(photoInput((x) => (x.document.number = 'X999'), { 'document.number': 0.3 }), 'document.number')).toMatchObject({ result: 'review', reason: expect.stringContaining('low extraction confidence') });
    expect(resultOf(photoInput((x) => (x.document.number = 'X999'), { 'document.number': 0.99 }), 'document.number')?.result).toBe('failed');
  });

  it('fails an unreadable document outright', () => {
    const report = evaluateRules(photoInput((x) => (x.document.identified = 'false')), thresholds);
    expect(report).toEqual({ outcome: 'failed', results: [expect.objectContaining({ name: 'document.identified', result: 'failed' })] });
  });

  it('fails a document from another country than expected', () => {
    const input = { ...photoInput(() => {}), country: 'DEU' };
    expect(resultOf(input, 'document.country')).toMatchObject({ expected: 'FRA', extracted: 'DEU', result: 'failed' });
  });
});

describe('proof of address and selfie rules', () => {
  it('matches name and address fuzzily', () => {
    const x = emptyExtractedData();
    x.document.identified = 'true';
    x.person.full_name = 'JOSE GARCIA MARQUEZ';
    x.address.full = '12 rue de la Paix 75002 Paris';
    x.address.country = 'FRA';
    const report = evaluateRules({ context: 'PROOF_OF_ADDRESS', typeName: 'Utility Bill', country: 'FRA', expected, extracted: x, confidence: {}, today: '2026-11-22' }, thresholds);
    expect(report.results.find((r) => r.name === 'person.full_name')?.result).toBe('passed');
    expect(report.results.find((r) => r.name === 'address.full')?.result).not.toBe('failed');
  });

  it('never passes a long name with one word spelled differently (NAKAMURA printed, NAKAMURO expected)', () => {
    const nakamuro = mergeExpectedData(expected, { person: { first_name: 'Taro', last_name: 'Nakamuro' } });
    const x = emptyExtractedData();
    x.document.identified = 'true';
    x.person.full_name = 'TARO NAKAMURA';
    const input: RuleInput = { context: 'PROOF_OF_ADDRESS', typeName: 'Utility Bill', country: 'FRA', expected: nakamuro, extracted: x, confidence: {}, today: '2026-11-22' };
    // Close overall (0.92), but the surname itself is not the same word.
    expect(similarity('Taro Nakamuro', 'TARO NAKAMURA')).toBeGreaterThanOrEqual(thresholds.name.pass);
    expect(resultOf(input, 'person.full_name')).toMatchObject({ result: 'review', reason: expect.stringContaining('a word differs') });
  });

  const selfie = (value: string, confidence: Record<string, number> = {}) => {
    const x = emptyExtractedData();
    x.document.selfie_comparison = value;
    return evaluateRules({ context: 'SELFIE', typeName: 'Selfie', country: 'FRA', expected, extracted: x, confidence, today: '2026-11-22' }, thresholds);
  };
  const t = thresholds.selfie_similarity;
  const oneFaceEach = { 'faces.selfie.count': 1, 'faces.selfie.width': 200, 'faces.document.count': 1, 'faces.document.width': 120 };

  it('passes a selfie at or above the pass threshold', () => {
    expect(selfie(String(t.pass), oneFaceEach).outcome).toBe('passed');
  });

  it('sends a score between the thresholds to review with the score and the reason', () => {
    const report = selfie(String(t.pass - 1), oneFaceEach);
    expect(report.outcome).toBe('review');
    expect(report.results[0]).toMatchObject({ name: 'selfie_comparison', extracted: String(t.pass - 1), result: 'review' });
    expect(report.results[0]?.reason).toContain(`similarity ${t.pass - 1}`);
  });

  it('rejects only below the clearly-different-person threshold', () => {
    expect(selfie(String(t.review), oneFaceEach).outcome).toBe('review');
    const report = selfie(String(t.review - 1), oneFaceEach);
    expect(report.outcome).toBe('failed');
    expect(report.results[0]?.reason).toContain('clearly a different person');
  });

  it('never passes an unevaluated selfie', () => {
    expect(selfie('').outcome).toBe('review');
    expect(selfie('').results[0]?.reason).toBe('face comparison not evaluated');
  });

  it.each([
    ['no face found on the selfie', { ...oneFaceEach, 'faces.selfie.count': 0 }],
    ['no face found on the ID document', { ...oneFaceEach, 'faces.document.count': 0 }],
    ['several faces (2) on the selfie', { ...oneFaceEach, 'faces.selfie.count': 2 }],
    ['several faces (3) on the ID document', { ...oneFaceEach, 'faces.document.count': 3 }],
    [`face too small on the ID document (${t.min_face_pixels - 1} px wide`, { ...oneFaceEach, 'faces.document.width': t.min_face_pixels - 1 }],
    ['face too small on the selfie (10 px wide', { ...oneFaceEach, 'faces.selfie.width': 10 }],
  ])('sends a comparison the engine cannot judge to review: %s', (reason, confidence) => {
    // Even a score that would otherwise reject (0) or pass (100) is reviewed.
    for (const value of ['0', '100', '']) {
      const report = selfie(value, confidence);
      expect(report.outcome).toBe('review');
      expect(report.results[0]?.reason).toContain(reason);
    }
  });

  it('names both sides when both cannot be judged', () => {
    const report = selfie('', { 'faces.selfie.count': 0, 'faces.document.count': 2, 'faces.document.width': 90 });
    expect(report.results[0]?.reason).toBe('no face found on the selfie; several faces (2) on the ID document');
  });

  it('keeps the thresholds ordered: clearly different < pass', () => {
    expect(t.review).toBeLessThan(t.pass);
    expect(t.min_face_pixels).toBeGreaterThan(0);
  });

  it('maps outcomes to document decisions', () => {
    expect([decisionStatus('passed'), decisionStatus('failed'), decisionStatus('review')]).toEqual([DocumentStatus.Approved, DocumentStatus.Rejected, DocumentStatus.DoubleCheck]);
  });
});
