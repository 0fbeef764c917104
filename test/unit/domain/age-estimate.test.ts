import { AGE_ESTIMATE_KEY, ageEstimateRules, OVER_AGE_MARGIN_YEARS, selfieAgeRules } from '../../../src/domain/age-estimate';
import { emptyExtractedData } from '../../../src/domain/rules';

const evidence = (estimate: number | undefined, checks: { age_estimate_max_gap_years?: number; minimum_age?: number }, dateOfBirth = '1990-06-15', dateOfBirthConfident = true) => ({
  estimate,
  dateOfBirth,
  dateOfBirthConfident,
  today: '2026-11-27',
  checks,
});

describe('selfie age rules', () => {
  it('are absent in a flow that does not set age_estimate_max_gap_years', () => {
    expect(ageEstimateRules(evidence(80, { minimum_age: 18 }))).toEqual([]);
  });

  it('pass an estimate within the gap of the document age and review a larger gap, never failed', () => {
    // Born 1990-06-15: 36 on 2026-11-27.
    expect(ageEstimateRules(evidence(45.4, { age_estimate_max_gap_years: 15 }))).toEqual([
      expect.objectContaining({ name: 'selfie.age_estimate', result: 'passed', extracted: 'about 45 years', expected: '36 years (born 1990-06-15)', score: 9, source: 'face_model' }),
    ]);
    const far = ageEstimateRules(evidence(14, { age_estimate_max_gap_years: 15 }));
    expect(far).toEqual([expect.objectContaining({ name: 'selfie.age_estimate', result: 'review', score: 22, reason: expect.stringContaining('22 years apart, over 15') })]);
    expect(ageEstimateRules(evidence(70, { age_estimate_max_gap_years: 5 })).map((r) => r.result)).toEqual(['review']);
  });

  it('are not evaluated without an estimate, or without a date of birth read with confidence', () => {
    expect(ageEstimateRules(evidence(undefined, { age_estimate_max_gap_years: 15 }))[0]).toMatchObject({ result: 'not_evaluated', reason: expect.stringContaining('no age estimate') });
    expect(ageEstimateRules(evidence(30, { age_estimate_max_gap_years: 15 }, '1990-06-15', false))[0]).toMatchObject({ result: 'not_evaluated', extracted: 'about 30 years' });
    expect(ageEstimateRules(evidence(30, { age_estimate_max_gap_years: 15 }, ''))[0]).toMatchObject({ result: 'not_evaluated' });
  });

  it('pass "over N" on the estimate only from N + 7 years; below, the date of birth decides', () => {
    const over = (estimate: number) => ageEstimateRules(evidence(estimate, { age_estimate_max_gap_years: 60, minimum_age: 18 })).find((r) => r.name === 'selfie.over_minimum_age');
    expect(OVER_AGE_MARGIN_YEARS).toBe(7);
    expect(over(25)).toMatchObject({ result: 'passed', score: 25, threshold: '>= 25' });
    expect(over(24.4)).toMatchObject({ result: 'not_evaluated', reason: expect.stringContaining('the document\'s date of birth decides') });
    // Even an estimate far under the minimum is never a failure: the document decides.
    expect(over(9)?.result).toBe('not_evaluated');
  });

  it('read the estimate from the selfie extraction and the date of birth from the photo ID as read', () => {
    const photo = { ...emptyExtractedData(), person: { ...emptyExtractedData().person, date_of_birth: '1990-06-15' } };
    const t = { min_confidence: 0.6 };
    const checks = { age_estimate_max_gap_years: 15 };
    expect(selfieAgeRules({ [AGE_ESTIMATE_KEY]: 60 }, { extracted: photo, confidence: { 'person.date_of_birth': 0.99 } }, '2026-11-27', checks, t)[0]?.result).toBe('review');
    expect(selfieAgeRules({ [AGE_ESTIMATE_KEY]: 60 }, { extracted: photo, confidence: { 'person.date_of_birth': 0.5 } }, '2026-11-27', checks, t)[0]?.result).toBe('not_evaluated');
  });
});
