import { selfieAgeRules } from './age-estimate';
import { consistencyRules } from './consistency';
import { similarity, weakestWord } from './names';
import { presentationRules } from './presentation';
import type { RuleThresholds } from './rule-thresholds';
import type { RuleInput, RuleOutcome, RuleResult, RulesReport } from './rule-types';
import { DocumentStatus } from './status';

// Types and name comparison live in modules of their own (rule-types.ts, names.ts), re-exported here for the callers of the rules.
export * from './rule-types';
export { foldText, normalizeName, similarity, weakestWord } from './names';

// The thresholds' schema is in a module of its own, so that a function that evaluates no rules carries no schema of them.
export type { RuleThresholds };

/**
 * What a face extractor found on each side of a selfie comparison, carried in the extraction's
 * confidence map (its only numeric channel) under these keys: the number of faces found (faces much
 * smaller than the largest are background and not counted) and the width in pixels of the largest.
 * Extractors that do not report them (Rekognition) are judged on the score alone.
 */
export const FACE_KEYS = {
  selfie: { count: 'faces.selfie.count', width: 'faces.selfie.width', label: 'the selfie' },
  document: { count: 'faces.document.count', width: 'faces.document.width', label: 'the ID document' },
} as const;

/** Why the faces of a selfie comparison cannot be judged, one reason per side at most. */
export function faceProblems(confidence: Record<string, number>, minFacePixels: number): string[] {
  const problems: string[] = [];
  for (const side of [FACE_KEYS.selfie, FACE_KEYS.document]) {
    const count = confidence[side.count];
    const width = confidence[side.width];
    if (count === undefined) continue;
    if (count === 0) problems.push(`no face found on ${side.label}`);
    else if (count > 1) problems.push(`several faces (${count}) on ${side.label}`);
    else if (width !== undefined && width < minFacePixels) problems.push(`face too small on ${side.label} (${Math.round(width)} px wide, at least ${minFacePixels} needed)`);
  }
  return problems;
}

/** Bumped whenever a rule's logic changes (not its thresholds): receipts and replays name it. */
export const RULES_VERSION = '2026.11-screening.1';

function normalizeNumber(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

class Evaluation {
  readonly results: RuleResult[] = [];
  constructor(private readonly input: RuleInput, private readonly t: RuleThresholds) {}

  add(name: string, expected: string, extracted: string, result: RuleOutcome, reason: string): void {
    this.results.push({ name, expected, extracted, result, reason });
  }

  /**
   * A confident extraction keeps its result; a low-confidence one decides nothing either way and is
   * reviewed (a misread, e.g. an MRZ field whose check digit fails, must not pass nor reject).
   */
  capped(field: string, result: RuleOutcome, reason: string): [RuleOutcome, string] {
    const c = this.input.confidence[field];
    if (result !== 'review' && c !== undefined && c < this.t.min_confidence) return ['review', `${reason}; low extraction confidence ${c.toFixed(2)}`];
    return [result, reason];
  }

  /** `byWord`: names pass only when every expected word also passes on its own. */
  fuzzy(name: string, field: string, expected: string, extracted: string, limits: { pass: number; review: number }, byWord = false): void {
    if (expected === '') return;
    if (extracted === '') return this.add(name, expected, extracted, 'review', 'not found on the document');
    const score = similarity(expected, extracted);
    let result: RuleOutcome = score >= limits.pass ? 'passed' : score >= limits.review ? 'review' : 'failed';
    let why = `similarity ${score.toFixed(2)}`;
    const scored = { score: Number(score.toFixed(4)), threshold: `pass >= ${limits.pass}, review >= ${limits.review}` };
    const word = byWord && result === 'passed' ? weakestWord(expected, extracted) : 1;
    if (word < limits.pass) {
      result = 'review';
      why += `; a word differs (word similarity ${word.toFixed(2)})`;
    }
    const [r, reason] = this.capped(field, result, why);
    this.add(name, expected, extracted, r, reason);
    Object.assign(this.results[this.results.length - 1] as RuleResult, scored);
  }

  exact(name: string, field: string, expected: string, extracted: string, normalize: (s: string) => string = (s) => s): void {
    if (expected === '') return;
    if (extracted === '') return this.add(name, expected, extracted, 'review', 'not found on the document');
    const same = normalize(expected) === normalize(extracted);
    const [r, reason] = this.capped(field, same ? 'passed' : 'failed', same ? 'equal' : 'different');
    this.add(name, expected, extracted, r, reason);
  }
}

/**
 * A face score alone never rejects unless it is below the "clearly different person" threshold: a
 * score between that and `pass` goes to review with the score, and so does a comparison whose faces
 * could not be judged (none, several, too small, on either side), saying which.
 */
function selfieRule(e: Evaluation, value: string, confidence: Record<string, number>, t: RuleThresholds['selfie_similarity']): void {
  const expected = `>= ${t.pass}`;
  const problems = faceProblems(confidence, t.min_face_pixels);
  const score = Number(value);
  if (problems.length > 0) return e.add('selfie_comparison', expected, value, 'review', problems.join('; '));
  if (value === '' || Number.isNaN(score)) return e.add('selfie_comparison', expected, value, 'review', 'face comparison not evaluated');
  const [result, reason]: [RuleOutcome, string] =
    score >= t.pass
      ? ['passed', `similarity ${score}`]
      : score >= t.review
        ? ['review', `similarity ${score} below ${t.pass}: not sure it is the same person`]
        : ['failed', `similarity ${score} below ${t.review}: clearly a different person`];
  e.add('selfie_comparison', expected, String(score), result, reason);
  Object.assign(e.results[e.results.length - 1] as RuleResult, { source: 'face_model', score, threshold: `pass >= ${t.pass}, review >= ${t.review}` });
}

/**
 * Failed if any rule failed; review if any is in review or none decided anything; `not_evaluated`
 * results decide nothing, but for a check the flow requires, which sends to review (never approval).
 */
export function overall(results: RuleResult[]): RuleOutcome {
  const deciding = results.filter((r) => r.result !== 'not_evaluated');
  if (deciding.some((r) => r.result === 'failed')) return 'failed';
  if (deciding.length === 0 || deciding.some((r) => r.result === 'review')) return 'review';
  if (results.some((r) => r.result === 'not_evaluated' && r.required)) return 'review';
  return 'passed';
}

/** A report with more results (the fraud rules evaluated outside evaluateRules), its outcome recomputed. */
export function withResults(report: RulesReport, more: RuleResult[]): RulesReport {
  const results = [...report.results, ...more];
  return { ...report, outcome: overall(results), results };
}

/**
 * Evaluates the validation rules of one document against the verification's expected data.
 * Rules with nothing expected are left out; a document that could not be read is failed.
 */
export function evaluateRules(input: RuleInput, t: RuleThresholds): RulesReport {
  const e = new Evaluation(input, t);
  const { expected, extracted: x } = input;
  if (input.context === 'SELFIE') {
    selfieRule(e, x.document.selfie_comparison, input.confidence, t.selfie_similarity);
    e.results.push(...presentationRules(input, t));
    // Only with the photo ID read: the pipeline evaluates it once both are (FinishRun), a replay from the stored extractions.
    const photo = input.others?.find((o) => o.context === 'PHOTO_ID');
    if (input.checks && photo) e.results.push(...selfieAgeRules(input.confidence, photo, input.today, input.checks, t));
    return { outcome: overall(e.results), results: e.results };
  }

  if (x.document.identified !== 'true') {
    e.add('document.identified', 'true', x.document.identified, 'failed', 'the document could not be read');
    return { outcome: 'failed', results: e.results };
  }

  const fullName = `${expected.person.first_name} ${expected.person.last_name}`.trim();
  if (input.context === 'PHOTO_ID') {
    const exp = expected.documents.photo_id;
    const given = x.person.given_names || x.person.full_name.replace(x.person.surname, '').trim();
    e.fuzzy('person.first_name', 'person.given_names', expected.person.first_name, given, t.name, true);
    e.fuzzy('person.last_name', 'person.surname', expected.person.last_name, x.person.surname, t.name, true);
    e.exact('person.date_of_birth', 'person.date_of_birth', expected.person.date_of_birth, x.person.date_of_birth);
    e.exact('document.number', 'document.number', exp.number, x.document.number, normalizeNumber);
    e.exact('document.type', 'document.type', exp.type, input.typeName);
    e.exact('document.country', 'document.country_code', exp.country, input.country);
    if (x.document.country_code !== '') e.exact('document.issuing_country', 'document.country_code', input.country, x.document.country_code);
    if (x.document.expiration_date === '') {
      e.add('document.not_expired', `> ${input.today}`, '', 'review', 'no expiration date found');
    } else {
      // Judged at submission (input.today): an expiry misread with low confidence is reviewed, not rejected.
      const valid = x.document.expiration_date >= input.today;
      const [r, reason] = e.capped('document.expiration_date', valid ? 'passed' : 'failed', valid ? 'valid' : 'expired');
      e.add('document.not_expired', `>= ${input.today}`, x.document.expiration_date, r, reason);
    }
  } else {
    const exp = expected.documents.proof_of_address;
    const address = [expected.address.street, expected.address.city, expected.address.state, expected.address.postal_code].filter(Boolean).join(' ');
    e.fuzzy('person.full_name', 'person.full_name', fullName, x.person.full_name, t.name, true);
    e.fuzzy('address.full', 'address.full', address, x.address.full || [x.address.street, x.address.city, x.address.state, x.address.zip].join(' ').trim(), t.address);
    e.exact('address.country', 'address.country', expected.address.country, x.address.country);
    e.exact('document.type', 'document.type', exp.type, input.typeName);
    e.exact('document.country', 'document.country_code', exp.country, input.country);
  }
  if (input.checks) e.results.push(...consistencyRules(input, t));
  return { outcome: overall(e.results), results: e.results };
}

/** The document status a rules outcome leads to. */
export function decisionStatus(outcome: RuleOutcome): DocumentStatus {
  return outcome === 'passed' ? DocumentStatus.Approved : outcome === 'failed' ? DocumentStatus.Rejected : DocumentStatus.DoubleCheck;
}
