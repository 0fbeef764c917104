import type { RuleThresholds } from './rule-thresholds';
import type { RuleInput, RuleResult } from './rule-types';

/**
 * Where a face extractor puts the selfie's presentation-attack scores (0..1, 1 = live and real) in the
 * extraction's confidence map, beside FACE_KEYS: Human's `antispoof` and `liveness` models
 * (src/adapters/offline/face-engines.ts). Extractors that give none (Rekognition) leave them out.
 */
export const PRESENTATION_KEYS = { antispoof: 'faces.selfie.real', liveness: 'faces.selfie.live' } as const;

const RULES = [
  { name: 'selfie.antispoof', key: PRESENTATION_KEYS.antispoof, what: 'antispoof', limit: (t: RuleThresholds) => t.selfie_presentation.antispoof },
  { name: 'selfie.passive_liveness', key: PRESENTATION_KEYS.liveness, what: 'liveness', limit: (t: RuleThresholds) => t.selfie_presentation.liveness },
] as const;

/**
 * Passive presentation-attack checks of a selfie (flows.json `checks.selfie_liveness`): extra
 * signals only. A low score sends the selfie to review, never to rejection, and a high one proves
 * nothing: these models are weak evidence (docs/explanation/fraud-signals.md gives what they
 * separate and what they miss). Proof of presence is `selfie.liveness`, the active challenge's rule
 * (src/app/liveness-check.ts); the passive liveness score is named `selfie.passive_liveness` so the
 * two are never confused. No score (no face found, the extractor gives none) → `not_evaluated`.
 */
export function presentationRules(input: RuleInput, t: RuleThresholds): RuleResult[] {
  // On unless the flow switches it off (flows stored before the check existed carry no value for it).
  if (input.context !== 'SELFIE' || !input.checks || input.checks.selfie_liveness === false) return [];
  const faces = input.confidence['faces.selfie.count'];
  return RULES.map(({ name, key, what, limit }) => {
    const min = limit(t);
    const expected = `>= ${min}`;
    const score = input.confidence[key];
    if (score === undefined || !Number.isFinite(score)) {
      const reason = faces === 0 ? 'no face found on the selfie' : `the extractor gave no ${what} score`;
      return { name, expected, extracted: '', result: 'not_evaluated', reason, source: 'face_model', threshold: expected };
    }
    const rounded = Math.round(score * 1000) / 1000;
    const base = { name, expected, extracted: String(rounded), source: 'face_model', score: rounded, threshold: expected };
    return rounded >= min
      ? { ...base, result: 'passed', reason: `${what} score ${rounded}` }
      : { ...base, result: 'review', reason: `${what} score ${rounded} below ${min}: possibly a photo or screen shown to the camera (a passive check: a reviewer decides)` };
  });
}
