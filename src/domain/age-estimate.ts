import { ageOn } from './consistency';
import type { FlowChecks } from './flow';
import type { RuleThresholds } from './rule-thresholds';
import type { ExtractedData, RuleResult } from './rule-types';
import { isCalendarDate } from './time';

/**
 * Where a face extractor puts the age its model estimates for the selfie's face (years), in the
 * extraction's confidence map beside FACE_KEYS and PRESENTATION_KEYS. Extractors that give none
 * (Rekognition's CompareFaces) leave it out, and the age rules are then not evaluated.
 */
export const AGE_ESTIMATE_KEY = 'faces.selfie.age';

/**
 * How far above a flow's minimum age the estimate must be for the "over N" check to pass on it
 * alone: face age models err by about 5 years on average (face-api's, as its authors measured it on
 * UTK), so an estimate only 2 years above N says little; under N + 7 the document's date of birth
 * decides (person.minimum_age).
 */
export const OVER_AGE_MARGIN_YEARS = 7;

/** What the age rules of a selfie read: its estimate, and the photo ID's date of birth when read. */
export interface AgeEvidence {
  /** The selfie face's estimated age (AGE_ESTIMATE_KEY), when the extractor gave one. */
  estimate: number | undefined;
  /** The photo ID's date of birth as extracted ('' when none), and whether it was read with confidence. */
  dateOfBirth: string;
  dateOfBirthConfident: boolean;
  /** The date the verification is judged at (YYYY-MM-DD). */
  today: string;
  checks: Pick<FlowChecks, 'age_estimate_max_gap_years' | 'minimum_age'>;
}

/**
 * The age checks of a selfie (docs/explanation/fraud-signals.md), signals and never a rejection:
 * `selfie.age_estimate` sends the selfie to review when the face looks far older or younger than the
 * photo ID's date of birth says (another person, or a borrowed document: a teenager with a parent's
 * passport); `selfie.over_minimum_age`, in a flow with a minimum age, passes on the estimate only
 * when it is at least the minimum plus OVER_AGE_MARGIN_YEARS, and otherwise leaves the decision to
 * the date of birth (not evaluated). Without an estimate both are not evaluated; in a flow that does
 * not set `age_estimate_max_gap_years`, neither is there.
 */
export function ageEstimateRules(e: AgeEvidence): RuleResult[] {
  const gap = e.checks.age_estimate_max_gap_years;
  if (gap === undefined) return [];
  const estimate = e.estimate !== undefined && Number.isFinite(e.estimate) ? Math.round(e.estimate) : undefined;
  const seen = estimate === undefined ? '' : `about ${estimate} years`;
  const noEstimate = 'no age estimate for the selfie (no face found, or the extractor gives none)';
  const base = { name: 'selfie.age_estimate', threshold: `<= ${gap} years apart`, source: 'face_model' as const };
  const out: RuleResult[] = [];
  if (estimate === undefined) {
    out.push({ ...base, expected: 'the age the photo ID gives', extracted: '', result: 'not_evaluated', reason: noEstimate });
  } else if (!isCalendarDate(e.dateOfBirth) || !e.dateOfBirthConfident) {
    out.push({ ...base, expected: 'the age the photo ID gives', extracted: seen, result: 'not_evaluated', reason: 'no date of birth read with confidence on the photo ID' });
  } else {
    const age = ageOn(e.dateOfBirth, e.today);
    const apart = Math.abs(estimate - age);
    const found = { ...base, expected: `${age} years (born ${e.dateOfBirth})`, extracted: seen, score: apart };
    out.push(
      apart <= gap
        ? { ...found, result: 'passed', reason: `estimated about ${estimate}, ${apart} years from the document's ${age}` }
        : { ...found, result: 'review', reason: `estimated about ${estimate} but the document says ${age}: ${apart} years apart, over ${gap} (an estimate: a reviewer decides)` },
    );
  }
  const minimum = e.checks.minimum_age;
  if (minimum !== undefined) {
    const needed = minimum + OVER_AGE_MARGIN_YEARS;
    const over = { name: 'selfie.over_minimum_age', expected: `>= ${needed} years (minimum ${minimum} + ${OVER_AGE_MARGIN_YEARS})`, threshold: `>= ${needed}`, source: 'face_model' as const, extracted: seen };
    if (estimate === undefined) out.push({ ...over, result: 'not_evaluated', reason: noEstimate });
    else if (estimate >= needed) out.push({ ...over, score: estimate, result: 'passed', reason: `estimated about ${estimate}: clearly over ${minimum}` });
    else out.push({ ...over, score: estimate, result: 'not_evaluated', reason: `estimated about ${estimate}, under ${needed}: the document's date of birth decides (person.minimum_age)` });
  }
  return out;
}

/** The names of the age rules: what a revision of the selfie's report replaces. */
export const AGE_RULES = ['selfie.age_estimate', 'selfie.over_minimum_age'];

/** The age rules of a selfie from its extraction's confidence map and the photo ID as read. */
export function selfieAgeRules(
  selfieConfidence: Record<string, number>,
  photo: { extracted: ExtractedData; confidence?: Record<string, number> },
  today: string,
  checks: AgeEvidence['checks'],
  t: Pick<RuleThresholds, 'min_confidence'>,
): RuleResult[] {
  return ageEstimateRules({
    estimate: selfieConfidence[AGE_ESTIMATE_KEY],
    dateOfBirth: photo.extracted.person.date_of_birth,
    dateOfBirthConfident: (photo.confidence?.['person.date_of_birth'] ?? 1) >= t.min_confidence,
    today,
    checks,
  });
}
