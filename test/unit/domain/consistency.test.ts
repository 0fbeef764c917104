import * as v from 'valibot';
import thresholdsFile from '../../../config/rules.json';
import { ageOn, daysBetween, mrzSpellings, sameName } from '../../../src/domain/consistency';
import { emptyExpectedData, mergeExpectedData } from '../../../src/domain/expected-data';
import { DEFAULT_CHECKS, type FlowChecks } from '../../../src/domain/flow';
import { emptyExtractedData, evaluateRules, type Reading, type RuleInput, withResults } from '../../../src/domain/rules';
import { RuleThresholdsSchema } from '../../../src/domain/rule-thresholds';

const thresholds = v.parse(RuleThresholdsSchema, thresholdsFile);
const expected = mergeExpectedData(emptyExpectedData(), {
  person: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '2010-06-15' },
  address: { street: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'USA' },
  documents: { photo_id: { type: 'Passport', number: 'P123', country: 'GBR' }, proof_of_address: { type: 'Utility Bill', country: 'USA' } },
});
const checks: FlowChecks = { ...DEFAULT_CHECKS, minimum_age: 18, proof_of_address_max_age_days: 90 };

function photo(dob: string, readings: Reading[] = [], confidence: Record<string, number> = {}): RuleInput {
  const x = emptyExtractedData();
  Object.assign(x.person, { given_names: 'ADA', surname: 'LOVELACE', date_of_birth: dob });
  Object.assign(x.document, { identified: 'true', number: 'P123', country_code: 'GBR', expiration_date: '2031-01-01' });
  const withDob = { ...expected, person: { ...expected.person, date_of_birth: dob } };
  return { context: 'PHOTO_ID', typeName: 'Passport', country: 'GBR', expected: withDob, extracted: x, confidence, today: '2026-06-14', checks, readings };
}

function bill(readings: Reading[], name = 'ADA LOVELACE', photoName = 'ADA LOVELACE'): RuleInput {
  const x = emptyExtractedData();
  Object.assign(x.document, { identified: 'true' });
  x.person.full_name = name;
  x.address.full = '1 Main St Austin TX 78701';
  x.address.country = 'USA';
  const other = emptyExtractedData();
  other.person.full_name = photoName;
  return { context: 'PROOF_OF_ADDRESS', typeName: 'Utility Bill', country: 'USA', expected, extracted: x, confidence: {}, today: '2026-06-14', checks, readings, others: [{ context: 'PHOTO_ID', extracted: other }] };
}

const rule = (input: RuleInput, name: string) => evaluateRules(input, thresholds).results.find((r) => r.name === name);

describe('dates', () => {
  it('counts whole years, the birthday itself included, and days across months', () => {
    expect(ageOn('2008-06-14', '2026-06-14')).toBe(18);
    expect(ageOn('2008-06-15', '2026-06-14')).toBe(17);
    expect(daysBetween('2026-03-16', '2026-06-14')).toBe(90);
  });
});

describe('minimum age', () => {
  it('fails a holder under the flow minimum, passes one at it, and is not evaluated without a date of birth', () => {
    expect(rule(photo('2008-06-15'), 'person.minimum_age')).toMatchObject({ result: 'failed', score: 17, threshold: '>= 18' });
    expect(rule(photo('2008-06-14'), 'person.minimum_age')).toMatchObject({ result: 'passed', score: 18 });
    expect(rule(photo(''), 'person.minimum_age')).toMatchObject({ result: 'not_evaluated', reason: 'no date of birth read on the document' });
  });

  it('reviews an under-age reading of low confidence instead of rejecting', () => {
    expect(rule(photo('2008-06-15', [], { 'person.date_of_birth': 0.3 }), 'person.minimum_age')?.result).toBe('review');
  });

  it('is left out when the flow sets no minimum age', () => {
    expect(rule({ ...photo('2015-01-01'), checks: DEFAULT_CHECKS }, 'person.minimum_age')).toBeUndefined();
  });
});

describe('proof of address issue date', () => {
  it('passes within the flow days, fails past them, and says so when no issue date was read', () => {
    const issued = (d: string): Reading[] => [{ field: 'document.issue_date', value: d, source: 'ocr' }];
    expect(rule(bill(issued('2026-03-16')), 'proof_of_address.issued_within')).toMatchObject({ result: 'passed', score: 90, source: 'ocr' });
    expect(rule(bill(issued('2026-03-15')), 'proof_of_address.issued_within')).toMatchObject({ result: 'failed', score: 91 });
    const none = rule(bill([]), 'proof_of_address.issued_within');
    expect(none).toMatchObject({ result: 'not_evaluated', reason: 'the extractor read no issue date on this document' });
    // Not evaluated decides nothing: the bill's outcome stays passed.
    expect(evaluateRules(bill([]), thresholds).outcome).toBe('passed');
  });
});

describe('sources of one document', () => {
  it('reviews an MRZ number that differs from the printed one and passes agreeing names', () => {
    const readings: Reading[] = [
      { field: 'document.number', value: 'P123', source: 'mrz' },
      { field: 'document.number', value: 'P 124', source: 'printed' },
      { field: 'person.surname', value: 'LOVELACE', source: 'mrz' },
      { field: 'person.surname', value: 'Lovelace', source: 'printed' },
    ];
    const report = evaluateRules(photo('1990-01-01', readings), thresholds);
    expect(report.results.find((r) => r.name === 'consistency.document.number')).toMatchObject({ result: 'review', expected: 'P123', extracted: 'P 124', source: 'mrz vs printed' });
    expect(report.results.find((r) => r.name === 'consistency.person.surname')).toMatchObject({ result: 'passed', score: 1 });
    expect(report.outcome).toBe('review');
  });

  it('is not evaluated when one source was read', () => {
    expect(rule(photo('1990-01-01', [{ field: 'document.number', value: 'P123', source: 'mrz' }]), 'consistency.sources')).toMatchObject({
      result: 'not_evaluated',
      reason: 'only one source read per field (mrz)',
    });
  });
});

describe('MRZ against the printed zone', () => {
  const pass = thresholds.name.pass;
  it('spells printed names as the MRZ does (ICAO 9303 part 3)', () => {
    expect(mrzSpellings('Müller')).toEqual(['MUELLER', 'MULLER']);
    expect(mrzSpellings("O'Brien-Smith")).toEqual(['OBRIEN SMITH']);
    expect(mrzSpellings('Øster Ærø')).toEqual(['OESTER AEROE']);
    expect(mrzSpellings('Grüßgott')).toContain('GRUESSGOTT');
    expect(mrzSpellings('ТКАЧЕНКО')).toEqual(['TKACHENKO']);
  });

  it('agrees through transliteration, lost umlaut dots, hyphens, truncation and left-out words, and not otherwise', () => {
    expect(sameName('MUELLER', 'MÜLLER', pass).same).toBe(true);
    expect(sameName('MUELLER', 'MULLER', pass).same).toBe(true);
    expect(sameName('OSPELTBECK', 'Ospelt-Beck', pass).same).toBe(true);
    expect(sameName('FIDAN', 'FIDAN BƏŞIR QIZI', pass)).toMatchObject({ same: true, why: 'the MRZ carries the first words of the printed name' });
    expect(sameName('WOLFESCHLEGELSTEINHAUSEN BERGERDO', 'WOLFESCHLEGELSTEINHAUSEN BERGERDORFF', pass)).toMatchObject({ same: true, why: 'the MRZ carries the name truncated' });
    expect(sameName('SMITH', 'SMITHSON', pass).same).toBe(false);
    expect(sameName('TANAKA', 'HOLLAND', pass).same).toBe(false);
  });

  const mrzAnd = (printed: Reading[]): Reading[] => [
    { field: 'person.surname', value: 'MUELLER', source: 'mrz', confidence: 0.95 },
    { field: 'person.date_of_birth', value: '2012-12-12', source: 'mrz', confidence: 0.99 },
    ...printed,
  ];

  it('reviews a confident disagreement naming both sources, and passes an agreeing printed zone', () => {
    const tampered = evaluateRules(photo('1990-01-01', mrzAnd([{ field: 'person.surname', value: 'SCHNEIDER', source: 'printed', confidence: 0.9 }])), thresholds);
    expect(tampered.results.find((r) => r.name === 'consistency.person.surname')).toMatchObject({
      result: 'review',
      expected: 'MUELLER',
      extracted: 'SCHNEIDER',
      source: 'mrz vs printed',
      reason: expect.stringContaining('the MRZ reads MUELLER, the printed text SCHNEIDER'),
    });
    expect(tampered.outcome).toBe('review');
    const genuine = evaluateRules(photo('1990-01-01', mrzAnd([{ field: 'person.surname', value: 'MULLER', source: 'printed', confidence: 0.9 }])), thresholds);
    expect(genuine.results.find((r) => r.name === 'consistency.person.surname')).toMatchObject({ result: 'passed', source: 'mrz vs printed' });
    expect(genuine.outcome).toBe('passed');
  });

  it('decides nothing on a disagreement read with low confidence', () => {
    const guessed = evaluateRules(photo('1990-01-01', mrzAnd([{ field: 'person.surname', value: 'SCHNEIDER', source: 'printed', confidence: 0.5 }])), thresholds);
    expect(guessed.results.find((r) => r.name === 'consistency.person.surname')).toMatchObject({ result: 'not_evaluated', reason: expect.stringContaining('low confidence (0.50)') });
    expect(guessed.outcome).toBe('passed');
  });

  it('reviews an unconfirmed MRZ name against a confidently printed name of someone else, and decides nothing on a misread', () => {
    const unconfirmed = (printed: string): Reading[] => [
      { field: 'person.surname', value: 'MUELLER', source: 'mrz', confidence: 0.5 },
      { field: 'person.surname', value: printed, source: 'printed', confidence: 0.9 },
    ];
    const reprinted = evaluateRules(photo('1990-01-01', unconfirmed('SCHNEIDER')), thresholds);
    expect(reprinted.results.find((r) => r.name === 'consistency.person.surname')).toMatchObject({
      result: 'review',
      reason: expect.stringContaining('name different people'),
    });
    const misread = evaluateRules(photo('1990-01-01', unconfirmed('MUELER')), thresholds);
    expect(misread.results.find((r) => r.name === 'consistency.person.surname')).toMatchObject({ result: 'not_evaluated' });
  });

  it('compares dates with the MRZ on two-digit years (the MRZ century is inferred)', () => {
    const readings = mrzAnd([{ field: 'person.date_of_birth', value: '1912-12-12', source: 'printed', confidence: 0.9 }]);
    expect(rule(photo('1990-01-01', readings), 'consistency.person.date_of_birth')?.result).toBe('passed');
    const other = mrzAnd([{ field: 'person.date_of_birth', value: '1912-12-13', source: 'printed', confidence: 0.9 }]);
    expect(rule(photo('1990-01-01', other), 'consistency.person.date_of_birth')?.result).toBe('review');
  });
});

describe('name across documents', () => {
  it('is evaluated on the proof of address only, whatever the photo ID saw', () => {
    const onPhoto = { ...photo('1990-01-01'), others: [{ context: 'PROOF_OF_ADDRESS' as const, extracted: bill([]).extracted }] };
    expect(rule(onPhoto, 'consistency.name_across_documents')).toBeUndefined();
  });

  it('passes the same name and reviews (never rejects) another one', () => {
    expect(rule(bill([]), 'consistency.name_across_documents')?.result).toBe('passed');
    const other = evaluateRules(bill([], 'ADA LOVELACE', 'GRACE HOPPER'), thresholds);
    expect(other.results.find((r) => r.name === 'consistency.name_across_documents')).toMatchObject({ result: 'review', expected: 'GRACE HOPPER', extracted: 'ADA LOVELACE' });
    expect(other.outcome).toBe('review');
  });
});

describe('merging results', () => {
  it('recomputes the outcome with the added results', () => {
    const report = evaluateRules(photo('1990-01-01'), thresholds);
    expect(report.outcome).toBe('passed');
    expect(withResults(report, [{ name: 'duplicate.document', expected: 'x', extracted: 'y', result: 'review', reason: 'r' }]).outcome).toBe('review');
  });
});
