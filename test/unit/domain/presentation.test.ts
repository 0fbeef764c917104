import * as v from 'valibot';
import ruleThresholds from '../../../config/rules.json';
import { DEFAULT_CHECKS } from '../../../src/domain/flow';
import { PRESENTATION_KEYS, presentationRules } from '../../../src/domain/presentation';
import { emptyExtractedData, evaluateRules, type RuleInput } from '../../../src/domain/rules';
import { RuleThresholdsSchema } from '../../../src/domain/rule-thresholds';

const t = v.parse(RuleThresholdsSchema, ruleThresholds);
const input = (confidence: Record<string, number>, checks = DEFAULT_CHECKS): RuleInput => ({
  context: 'SELFIE',
  typeName: 'Selfie',
  country: 'GBR',
  expected: {} as RuleInput['expected'],
  extracted: { ...emptyExtractedData(), document: { ...emptyExtractedData().document, selfie_comparison: '90' } },
  confidence,
  today: '2026-01-01',
  checks,
});

describe('selfie presentation-attack rules', () => {
  const { antispoof, liveness } = t.selfie_presentation;

  it('passes scores at the thresholds and sends lower ones to review, never failed', () => {
    const results = presentationRules(input({ [PRESENTATION_KEYS.antispoof]: antispoof, [PRESENTATION_KEYS.liveness]: liveness - 0.01 }), t);
    expect(results).toEqual([
      expect.objectContaining({ name: 'selfie.antispoof', result: 'passed', score: antispoof, source: 'face_model' }),
      expect.objectContaining({ name: 'selfie.passive_liveness', result: 'review', reason: expect.stringContaining('a reviewer decides') }),
    ]);
    const report = evaluateRules(input({ [PRESENTATION_KEYS.antispoof]: 0, [PRESENTATION_KEYS.liveness]: 0, 'faces.selfie.count': 1 }), t);
    expect(report.outcome).toBe('review');
  });

  it('is not evaluated without a score (no face found, or an extractor that gives none)', () => {
    expect(presentationRules(input({ 'faces.selfie.count': 0 }), t).map((r) => [r.result, r.reason])).toEqual([
      ['not_evaluated', 'no face found on the selfie'],
      ['not_evaluated', 'no face found on the selfie'],
    ]);
    expect(presentationRules(input({}), t)[1]).toMatchObject({ result: 'not_evaluated', reason: 'the extractor gave no liveness score' });
  });

  it('is left out when the flow switches it off, and on other documents', () => {
    expect(presentationRules(input({ [PRESENTATION_KEYS.antispoof]: 0 }, { ...DEFAULT_CHECKS, selfie_liveness: false }), t)).toEqual([]);
    expect(presentationRules({ ...input({ [PRESENTATION_KEYS.antispoof]: 0 }), context: 'PHOTO_ID' }, t)).toEqual([]);
  });
});
