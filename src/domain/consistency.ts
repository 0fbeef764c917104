import type { ContextType } from './flow';
import type { ExtractedData, Reading, ReadingSource, RuleInput, RuleOutcome, RuleResult, RuleThresholds } from './rules';
import { normalizeName, similarity } from './rules';
import { isCalendarDate } from './time';

/**
 * The consistency rules of README "Fraud signals and receipts": minimum age, proof-of-address age,
 * one document's sources against each other (MRZ, barcode, printed text) and the photo ID's name
 * against the proof of address's. Pure: evaluated from what the extractor read and the flow's checks.
 *
 * Routing (the decision policy): a clear policy breach read with confidence fails (an under-age holder,
 * a proof of address older than the flow allows); a disagreement between sources, which can be a
 * misread as well as a forgery, goes to review; a rule whose input was not read is `not_evaluated`.
 */
export function consistencyRules(input: RuleInput, t: RuleThresholds): RuleResult[] {
  const checks = input.checks;
  if (!checks || input.context === 'SELFIE') return [];
  const out: RuleResult[] = [];
  const confident = (field: string) => (input.confidence[field] ?? 1) >= t.min_confidence;
  const sourceOf = (field: string) => firstReading(input.readings, field)?.source;

  if (input.context === 'PHOTO_ID' && checks.minimum_age !== undefined) {
    out.push(minimumAge(input.extracted.person.date_of_birth, input.today, checks.minimum_age, confident('person.date_of_birth'), sourceOf('person.date_of_birth')));
  }
  if (input.context === 'PROOF_OF_ADDRESS' && checks.proof_of_address_max_age_days !== undefined) {
    const issued = firstReading(input.readings, 'document.issue_date');
    out.push(issuedWithin(issued, input.today, checks.proof_of_address_max_age_days, confident('document.issue_date')));
  }
  if (checks.cross_source) {
    out.push(...crossSource(input.readings ?? [], t));
    const across = acrossDocuments(input.context, input.extracted, input.others ?? [], t);
    if (across) out.push(across);
  }
  return out;
}

/** Whole years between a date of birth and `on` (both YYYY-MM-DD). */
export function ageOn(dateOfBirth: string, on: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** Days from `from` to `to` (YYYY-MM-DD), negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function minimumAge(dob: string, today: string, minimum: number, confident: boolean, source: ReadingSource | undefined): RuleResult {
  const base = { name: 'person.minimum_age', expected: `>= ${minimum} years on ${today}`, threshold: `>= ${minimum}`, ...(source && { source }) };
  if (!isCalendarDate(dob)) return { ...base, extracted: dob, result: 'not_evaluated', reason: 'no date of birth read on the document' };
  const age = ageOn(dob, today);
  const extracted = `${age} years (born ${dob})`;
  if (age >= minimum) return { ...base, extracted, score: age, result: 'passed', reason: `aged ${age}` };
  if (!confident) return { ...base, extracted, score: age, result: 'review', reason: `aged ${age}, under ${minimum}; the date of birth was read with low confidence` };
  return { ...base, extracted, score: age, result: 'failed', reason: `aged ${age}: under the flow's minimum age ${minimum}` };
}

function issuedWithin(issued: Reading | undefined, today: string, maxDays: number, confident: boolean): RuleResult {
  const base = { name: 'proof_of_address.issued_within', expected: `issued within ${maxDays} days before ${today}`, threshold: `<= ${maxDays} days` };
  if (!issued || !isCalendarDate(issued.value)) {
    return { ...base, extracted: issued?.value ?? '', result: 'not_evaluated', reason: 'the extractor read no issue date on this document' };
  }
  const days = daysBetween(issued.value, today);
  const found = { ...base, extracted: issued.value, source: issued.source, score: days };
  if (days < 0) return { ...found, result: 'review', reason: `issued ${-days} days after the submission date` };
  if (days <= maxDays) return { ...found, result: 'passed', reason: `issued ${days} days before` };
  if (!confident) return { ...found, result: 'review', reason: `issued ${days} days before, over ${maxDays}; the date was read with low confidence` };
  return { ...found, result: 'failed', reason: `issued ${days} days before: older than the flow's ${maxDays} days` };
}

/** Which source's value the others are compared with, most trustworthy first (check digits, then signed barcode data). */
const SOURCE_ORDER: readonly ReadingSource[] = ['mrz', 'barcode', 'printed', 'ocr', 'pdf_text', 'sandbox'];

/** The fields compared across sources, and how. */
const COMPARED: Record<string, 'name' | 'code' | 'date'> = {
  'person.surname': 'name',
  'person.given_names': 'name',
  'person.full_name': 'name',
  'person.date_of_birth': 'date',
  'document.number': 'code',
  'document.expiration_date': 'date',
  'document.country_code': 'code',
};

const code = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

function firstReading(readings: Reading[] | undefined, field: string): Reading | undefined {
  const of = (readings ?? []).filter((r) => r.field === field && r.value !== '');
  return of.sort((a, b) => SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source))[0];
}

/**
 * One document's sources against each other: each value of a field compared with the most trusted
 * source's. Names are compared by similarity (a barcode or printed text may abbreviate), numbers and
 * dates exactly once normalised. A disagreement goes to review: it is what a re-printed front on a
 * genuine MRZ looks like, and also what a misread looks like.
 */
function crossSource(readings: Reading[], t: RuleThresholds): RuleResult[] {
  const out: RuleResult[] = [];
  for (const [field, kind] of Object.entries(COMPARED)) {
    const first = firstReading(readings, field);
    if (!first) continue;
    for (const other of readings.filter((r) => r.field === field && r.value !== '' && r.source !== first.source)) {
      const base = { name: `consistency.${field}`, expected: first.value, extracted: other.value, source: `${first.source} vs ${other.source}` };
      if (kind === 'name') {
        const score = similarity(first.value, other.value);
        const result: RuleOutcome = score >= t.name.pass ? 'passed' : 'review';
        out.push({ ...base, score: Number(score.toFixed(4)), threshold: `>= ${t.name.pass}`, result, reason: result === 'passed' ? 'the sources agree' : `the sources differ (similarity ${score.toFixed(2)})` });
      } else {
        const same = kind === 'code' ? code(first.value) === code(other.value) : first.value === other.value;
        out.push({ ...base, result: same ? 'passed' : 'review', reason: same ? 'the sources agree' : 'the sources differ' });
      }
    }
  }
  if (out.length > 0) return out;
  const sources = [...new Set(readings.map((r) => r.source))];
  return [
    {
      name: 'consistency.sources',
      expected: 'two sources of the same field (MRZ, barcode, printed text)',
      extracted: sources.join(', '),
      result: 'not_evaluated',
      reason: sources.length === 0 ? 'the extractor reported no per-source values' : `only one source read per field (${sources.join(', ')})`,
    },
  ];
}

function photoIdName(x: ExtractedData): string {
  return x.person.full_name || `${x.person.given_names} ${x.person.surname}`.trim();
}

/**
 * The photo ID's holder against the proof of address's addressee. A mismatch goes to review, never to
 * a rejection: a bill in a married name or with an initial is common and a person judges it.
 */
function acrossDocuments(context: ContextType, extracted: ExtractedData, others: RuleInput['others'] & object, t: RuleThresholds): RuleResult | undefined {
  const otherContext = context === 'PHOTO_ID' ? 'PROOF_OF_ADDRESS' : 'PHOTO_ID';
  const other = others.find((o) => o.context === otherContext);
  if (!other) return undefined;
  const [photo, poa] = context === 'PHOTO_ID' ? [extracted, other.extracted] : [other.extracted, extracted];
  const base = { name: 'consistency.name_across_documents', expected: photoIdName(photo), extracted: poa.person.full_name, source: 'photo_id vs proof_of_address', threshold: `>= ${t.name.pass}` };
  if (base.expected === '' || base.extracted === '') return { ...base, result: 'not_evaluated', reason: 'a name was not read on one of the documents' };
  const score = similarity(base.expected, base.extracted);
  const word = normalizeName(base.expected) === normalizeName(base.extracted);
  const passed = word || score >= t.name.pass;
  return { ...base, score: Number(score.toFixed(4)), result: passed ? 'passed' : 'review', reason: passed ? 'same name on both documents' : `the names differ (similarity ${score.toFixed(2)})` };
}
