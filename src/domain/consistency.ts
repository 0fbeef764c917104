import { normalizeName, similarity } from './names';
import type { RuleThresholds } from './rule-thresholds';
import type { ExtractedData, Reading, ReadingSource, RuleInput, RuleResult, RuleResultValue } from './rule-types';
import { isCalendarDate } from './time';

/**
 * The consistency rules of docs/explanation/fraud-signals.md: minimum age, proof-of-address age,
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
    // On the proof of address only, and only with the photo ID read: the pipeline evaluates it once both
    // are (FinishRun), a replay from the stored extractions; never on whichever document finished second.
    const photo = input.context === 'PROOF_OF_ADDRESS' ? input.others?.find((o) => o.context === 'PHOTO_ID') : undefined;
    if (photo) out.push(nameAcrossDocuments(photo.extracted, input.extracted, t));
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
/** A document number as OCR may read it: the letters O and I stand for the digits 0 and 1 (issuers avoid them for that reason). */
const numberForm = (s: string) => code(s).replace(/O/g, '0').replace(/I/g, '1');

function firstReading(readings: Reading[] | undefined, field: string): Reading | undefined {
  const of = (readings ?? []).filter((r) => r.field === field && r.value !== '');
  return of.sort((a, b) => SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source))[0];
}

/**
 * ICAO 9303 part 3 transliteration of the national characters a visual zone prints into the MRZ's
 * A–Z (the recommended column: Ä → AE, Ü → UE; the plain letters of the other column come from
 * stripping accents), Latin and Cyrillic. Letters not listed lose their accents.
 */
const ICAO_TRANSLITERATION: Record<string, string> = {
  Ä: 'AE', Æ: 'AE', Å: 'AA', Ö: 'OE', Ø: 'OE', Œ: 'OE', Ü: 'UE', ß: 'SS', Þ: 'TH', Ð: 'D', Đ: 'D', Ĳ: 'IJ', Ł: 'L', Ħ: 'H', Ŋ: 'N', ẞ: 'SS', Ə: 'A',
  А: 'A', Б: 'B', В: 'V', Г: 'G', Ґ: 'G', Д: 'D', Ђ: 'D', Е: 'E', Ё: 'E', Є: 'IE', Ж: 'ZH', З: 'Z', Ѕ: 'DZ', И: 'I', І: 'I', Ї: 'I', Й: 'I', Ј: 'J',
  К: 'K', Л: 'L', Љ: 'LJ', М: 'M', Н: 'N', Њ: 'NJ', О: 'O', П: 'P', Р: 'R', С: 'S', Т: 'T', Ћ: 'C', Ќ: 'KJ', У: 'U', Ў: 'U', Ф: 'F', Х: 'KH',
  Ц: 'TS', Ч: 'CH', Џ: 'DZ', Ш: 'SH', Щ: 'SHCH', Ъ: 'IE', Ы: 'Y', Ь: '', Э: 'E', Ю: 'IU', Я: 'IA',
};

/** The letters ICAO 9303 also lets an MRZ write plain (Ä as A, Ö as O, Ü as U). */
const PLAIN_ALLOWED = new Set(['Ä', 'Ö', 'Ü']);

/**
 * A name as an MRZ carries it: A–Z and single spaces; apostrophes dropped (O'BRIEN → OBRIEN), hyphens and
 * fillers to spaces; national letters transliterated, umlauts as AE/OE/UE or (`plain`) as A/O/U.
 */
function mrzWords(value: string, plain = false): string {
  const upper = value.toUpperCase().replace(/['’`]/g, '').replace(/</g, ' ');
  return foldLatin([...upper].map((c) => (plain && PLAIN_ALLOWED.has(c) ? c : (ICAO_TRANSLITERATION[c] ?? c))).join(''));
}
const foldLatin = (s: string) => s.normalize('NFKD').replace(/\p{M}+/gu, '').replace(/[^A-Z]+/g, ' ').trim();

/**
 * The ways the MRZ may spell a name printed in the visual zone: transliterated as ICAO recommends
 * (MÜLLER → MUELLER) or by dropping accents (MULLER); an MRZ's AE/OE/UE also matches a visual zone
 * read without its umlaut's dots.
 */
export function mrzSpellings(printed: string): string[] {
  return [...new Set([mrzWords(printed), mrzWords(printed, true)])].filter(Boolean);
}

/** Names of the MRZ longer than this (letters and spaces) may have been cut at the end of the name field (30 characters on TD1 cards, 39 on passports). */
const TRUNCATION_LENGTH = 26;

/**
 * Whether an MRZ name and the printed one are the same name, and why: equal once transliterated;
 * equal but for spaces and hyphens (OSPELT-BECK as OSPELTBECK); the MRZ carrying only the first
 * words of the printed name (a patronymic or a second given name left out); the MRZ's long name
 * truncated (its last word a prefix of the printed word). Otherwise by similarity, for OCR slips.
 */
export function sameName(mrz: string, printed: string, pass: number): { same: boolean; score: number; why: string } {
  const m = mrzWords(mrz);
  const variants = [m, m.replace(/([AOU])E/g, '$1')];
  const compact = (s: string) => s.replace(/ /g, '');
  let score = 0;
  for (const p of mrzSpellings(printed)) {
    if (variants.includes(p)) return { same: true, score: 1, why: 'the sources agree' };
    if (variants.some((v) => compact(v) === compact(p))) return { same: true, score: 1, why: 'the sources agree but for spaces and hyphens' };
    const mw = m.split(' ');
    const pw = p.split(' ');
    const leading = mw.length < pw.length && mw.every((w, i) => w === pw[i]);
    if (leading) return { same: true, score: 1, why: 'the MRZ carries the first words of the printed name' };
    const truncated = m.length >= TRUNCATION_LENGTH && mw.length <= pw.length && mw.every((w, i) => (i === mw.length - 1 ? (pw[i] ?? '').startsWith(w) : w === pw[i]));
    if (truncated) return { same: true, score: 1, why: 'the MRZ carries the name truncated' };
    score = Math.max(score, ...variants.map((v) => similarity(v, p)));
  }
  return { same: score >= pass, score, why: score >= pass ? 'the sources agree' : `the sources differ (similarity ${score.toFixed(2)})` };
}

/** Two dates of one document: an MRZ gives two-digit years (its century is inferred), so against it only YY-MM-DD count. */
function sameDate(a: Reading, b: Reading): boolean {
  if (a.source === 'mrz' || b.source === 'mrz') return a.value.slice(2) === b.value.slice(2);
  return a.value === b.value;
}

/** Document numbers: equal once spaces are dropped and O/I read as 0/1; a number longer than the MRZ's nine characters continues in its optional data. */
function sameCode(field: string, a: Reading, b: Reading): boolean {
  if (field !== 'document.number') return code(a.value) === code(b.value);
  const [x, y] = [numberForm(a.value), numberForm(b.value)];
  if (x === y) return true;
  const [mrz, other] = a.source === 'mrz' ? [x, y] : b.source === 'mrz' ? [y, x] : ['', ''];
  return mrz.length === 9 && other.length > 9 && other.startsWith(mrz);
}

const SOURCE_NAMES: Partial<Record<ReadingSource, string>> = { mrz: 'the MRZ', barcode: 'the barcode', printed: 'the printed text', ocr: 'the OCR text' };
const sourceName = (s: ReadingSource) => SOURCE_NAMES[s] ?? s;

/**
 * Below this similarity two names are different names rather than one name misread: a misread keeps
 * most letters (OLVIA for OLIVIA scores about 0.9), a name re-printed over a genuine MRZ keeps few.
 */
const ANOTHER_NAME = 0.5;

/**
 * One document's sources against each other: each value of a field compared with the most trusted
 * source's, once normalised (sameName, sameDate, sameCode). A disagreement goes to review: it is what
 * a re-printed front on a genuine MRZ looks like, and also what a misread looks like. A disagreement
 * with a value read below min_confidence (a printed field guessed, an MRZ name the reads did not
 * agree on) decides nothing: not_evaluated, both values shown; except that an unconfirmed
 * trusted-source name against a confidently read name of another person (ANOTHER_NAME) stays
 * review: that is the tamper signal, and a misread does not look like it.
 */
export function crossSource(readings: Reading[], t: RuleThresholds): RuleResult[] {
  const out: RuleResult[] = [];
  for (const [field, kind] of Object.entries(COMPARED)) {
    const first = firstReading(readings, field);
    if (!first) continue;
    for (const other of readings.filter((r) => r.field === field && r.value !== '' && r.source !== first.source)) {
      const base = { name: `consistency.${field}`, expected: first.value, extracted: other.value, source: `${first.source} vs ${other.source}` };
      const name = kind === 'name' ? sameName(first.value, other.value, t.name.pass) : undefined;
      const same = name ? name.same : kind === 'code' ? sameCode(field, first, other) : sameDate(first, other);
      const scored = name ? { score: Number(name.score.toFixed(4)), threshold: `>= ${t.name.pass}` } : {};
      const differ = `${sourceName(first.source)} reads ${first.value}, ${sourceName(other.source)} ${other.value}`;
      const weakest = Math.min(first.confidence ?? 1, other.confidence ?? 1);
      let result: RuleResultValue = same ? 'passed' : 'review';
      let reason = same ? (name?.why ?? 'the sources agree') : `the sources differ: ${differ}${name ? ` (similarity ${name.score.toFixed(2)})` : ''}`;
      if (!same && weakest < t.min_confidence) {
        const anotherName = name !== undefined && name.score < ANOTHER_NAME && (other.confidence ?? 1) >= t.min_confidence;
        result = anotherName ? 'review' : 'not_evaluated';
        reason = anotherName
          ? `${differ}: ${sourceName(first.source)}, read with low confidence (${weakest.toFixed(2)}), and ${sourceName(other.source)}, read with confidence, name different people (similarity ${name.score.toFixed(2)})`
          : `${differ}, but one of them was read with low confidence (${weakest.toFixed(2)})`;
      }
      out.push({ ...base, ...scored, result, reason });
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
export function nameAcrossDocuments(photo: ExtractedData, poa: ExtractedData, t: RuleThresholds): RuleResult {
  const base = { name: ACROSS_DOCUMENTS, expected: photoIdName(photo), extracted: poa.person.full_name, source: 'photo_id vs proof_of_address', threshold: `>= ${t.name.pass}` };
  if (base.expected === '' || base.extracted === '') return { ...base, result: 'not_evaluated', reason: 'a name was not read on one of the documents' };
  const score = similarity(base.expected, base.extracted);
  const word = normalizeName(base.expected) === normalizeName(base.extracted);
  const passed = word || score >= t.name.pass;
  return { ...base, score: Number(score.toFixed(4)), result: passed ? 'passed' : 'review', reason: passed ? 'same name on both documents' : `the names differ (similarity ${score.toFixed(2)})` };
}

/** The rule comparing the photo ID's name with the proof of address's. */
export const ACROSS_DOCUMENTS = 'consistency.name_across_documents';
