import { sameName } from '../../domain/consistency';
import { foldText, type Reading } from '../../domain/rules';
import { type DateOrder, findValue, type Found } from './text-search';

/**
 * The visual inspection zone (VIZ) of a passport or ID card: the printed fields beside the MRZ, read
 * from OCR lines placed on the page, as readings of source `printed` for the cross-source rules.
 * Pure functions; the extractor does the OCR (extractor.ts, `viz`).
 *
 * Each field is read two ways: under its label (the line below "Surname / Nom", or after it on the
 * same line) and by searching the zone for the MRZ's value. A value read under its label that agrees
 * with the MRZ is trusted; one that differs is a disagreement only when the MRZ's value is printed
 * nowhere else in the zone (otherwise the label was likely matched to the wrong line: reported
 * untrusted) and the extractor's second read of that line gives the same value. Without a label, a
 * search hit is the reading, trusted only when it is exact and a line of its own (where values are
 * printed), names and numbers as whole words. Nothing read: no reading, and the rule is not evaluated.
 */

/** One OCR line of the zone, in page pixels; `mean` is the recogniser's mean character confidence. */
export interface VizLine {
  text: string;
  mean: number;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The MRZ's values the zone is compared with (YYYY-MM-DD dates). */
export interface MrzValues {
  surname: string;
  givenNames: string;
  dateOfBirth: string;
  documentNumber: string;
  expirationDate: string;
}

/** A printed field read: `confirm` is the line to read again before a disagreement is trusted. */
export interface VizReading extends Reading {
  confirm?: VizLine;
  /** Whether the value agrees with the MRZ's (read under its label or found by search). */
  agrees: boolean;
}

/** Confidence of a printed value read under its label (and, when it differs from the MRZ, read again alike). */
export const LABELLED = 0.9;
/** Confidence of a value whose reading is doubtful: below the rules' min_confidence, so a disagreement decides nothing. */
export const DOUBTFUL = 0.5;
/** Name similarity from which a printed name agrees with the MRZ's: the rules' default `name.pass` (config/rules.json); it only decides which readings are read twice. */
export const NAME_AGREEMENT = 0.92;
/** Recogniser mean below which a line's text is not trusted. */
const MIN_MEAN = 0.85;

type Kind = 'name' | 'date' | 'number';
interface FieldSpec {
  field: string;
  kind: Kind;
  label: RegExp;
  mrz: (m: MrzValues) => string;
}

/** Labels as folded (foldText: upper case, accents dropped, punctuation to spaces), in the languages passports print most. */
const FIELDS: FieldSpec[] = [
  {
    field: 'person.given_names',
    kind: 'name',
    label: /\b(GIVEN NAMES?|FORENAMES?|FIRST NAMES?|PRENOMS?|NOMBRES?|VORNAMEN?|VOORNAMEN|NOMI|FORNAMN|ETUNIMET|FORNAVNE|IMIONA|JMENO|KERESZTNEV|FN)\b/,
    mrz: (m) => m.givenNames,
  },
  {
    field: 'person.surname',
    kind: 'name',
    label: /\b(SURNAME|FAMILY NAME|LAST NAME|NOM|APELLIDOS?|NACHNAME|FAMILIENNAME|COGNOME|ACHTERNAAM|EFTERNAMN|SUKUNIMI|ETTERNAVN|NAZWISKO|PRIJMENI|CSALADI NEV|NAME|LN)\b/,
    mrz: (m) => m.surname,
  },
  {
    field: 'person.date_of_birth',
    kind: 'date',
    label: /\b(DATE OF BIRTH|BIRTH DATE|DATE DE NAISSANCE|FECHA DE NACIMIENTO|GEBURTSTAG|GEBURTSDATUM|DATA DI NASCITA|GEBOORTEDATUM|FODELSEDATUM|DOB)\b/,
    mrz: (m) => m.dateOfBirth,
  },
  {
    field: 'document.expiration_date',
    kind: 'date',
    label: /\b(DATE OF EXPIRY|EXPIRY DATE|EXPIRY|EXPIRATION|DATE D EXPIRATION|GULTIG BIS|VALID UNTIL|FECHA DE CADUCIDAD|FECHA DE VENCIMIENTO|DATA DI SCADENZA|GELDIG TOT|GILTIG T O M|EXP|4B EXP)\b/,
    mrz: (m) => m.expirationDate,
  },
  {
    field: 'document.number',
    kind: 'number',
    label: /\b(PASSPORT NO|PASSPORT NUMBER|DOCUMENT NO|DOCUMENT NUMBER|CARD NO|NO DU PASSEPORT|N DU PASSEPORT|PASS NR|PASSNUMMER|AUSWEISNUMMER|DOCUMENTNUMMER|PASAPORTE N|N PASAPORTE|NUMERO|DLN?|LIC NO|4D DLN|4D)\b/,
    mrz: (m) => m.documentNumber,
  },
];
const ANY_LABEL = new RegExp(FIELDS.map((f) => f.label.source).join('|'));
const ANY_LABEL_G = new RegExp(ANY_LABEL.source, 'g');

/**
 * An expected value searched only where its field is printed: after the field's label on the label's
 * line, or on the line below the label (when that is no label itself), as whole words. Expected data
 * tells where to look, never what to report: a word of the page equal to an expected value elsewhere
 * (CITIZEN in the nationality "BRITISH CITIZEN", searched as a surname) is no reading of the field.
 * `field` is one of the printed zone's (person.surname, person.given_names, person.date_of_birth,
 * document.expiration_date, document.number); `found.line` is the index of the line the value is on.
 * Dates are found in any printed spelling (vizDates; numeric ones in `order`).
 */
export function findWhereLabelled(lines: string[], field: string, needle: string, order: DateOrder = 'DMY'): Found | undefined {
  const spec = FIELDS.find((f) => f.field === field);
  if (!spec) return undefined;
  const given = FIELDS.find((f) => f.field === 'person.given_names')?.label;
  const spots: { text: string; line: number }[] = [];
  lines.forEach((raw, i) => {
    const folded = foldText(raw);
    const m = spec.label.exec(folded);
    // "First name" is no surname label, though it says NAME.
    if (!m || (field === 'person.surname' && m[0] === 'NAME' && given?.test(folded))) return;
    spots.push({ text: folded.slice(m.index + m[0].length).replace(ANY_LABEL_G, ' '), line: i });
    const next = lines[i + 1];
    if (next !== undefined && !ANY_LABEL.test(foldText(next))) spots.push({ text: next, line: i + 1 });
  });
  if (spec.kind === 'date') {
    // A date (YYYY-MM-DD) in any printed spelling, its two-digit year in the expected date's century.
    const at = spots.find((s) => vizDates(s.text, Number(needle.slice(0, 2)), order).some((d) => d.isos.includes(needle)));
    return at && { text: needle, line: at.line, score: 1, confidence: 1 };
  }
  const hit = findValue(spots.map((s) => s.text), needle, { wholeWords: true });
  return hit && { ...hit, line: spots[hit.line]?.line ?? hit.line };
}

/** Month words of the languages printed on data pages (the first of "JAN/JAN" decides), to their number. */
const MONTH_WORDS: Record<string, number> = {
  JAN: 1, JANV: 1, ENE: 1, GEN: 1, FEB: 2, FEV: 2, FEVR: 2, MAR: 3, MARS: 3, MRZ: 3, APR: 4, AVR: 4, ABR: 4, MAY: 5, MAI: 5, MAG: 5,
  JUN: 6, JUIN: 6, GIU: 6, JUL: 7, JUIL: 7, LUG: 7, AUG: 8, AOU: 8, AOUT: 8, AGO: 8, SEP: 9, SEPT: 9, SET: 9, OCT: 10, OKT: 10, OTT: 10,
  NOV: 11, DEC: 12, DEZ: 12, DIC: 12,
};

/** A printed date as its possible YYYY-MM-DD readings (two when a numeric day and month could be swapped); a two-digit year takes `century`. */
export interface VizDate {
  isos: string[];
}

const pad = (n: number) => String(n).padStart(2, '0');
function iso(y: number, m: number, d: number): string | undefined {
  if (m < 1 || m > 12 || d < 1 || d > new Date(Date.UTC(y, m, 0)).getUTCDate()) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/**
 * The dates printed in a text: "12 JAN 1985", "12 JAN/JAN 85", "12 JANV/JAN 1985", "12JAN85",
 * "12.01.1985", "12 01 85", "12/01/1985", "1985-01-12". A two-digit year is put in `century` (the
 * MRZ's: two digits are all it carries too). A numeric date whose day and month could be swapped
 * gives both readings, `order` (the issuing country's) first.
 */
export function vizDates(text: string, century: number, order: DateOrder = 'DMY'): VizDate[] {
  const t = foldText(text).replace(/(\d)\s+(?=\d)/g, '$1 ');
  const out: VizDate[] = [];
  const year = (y: string) => (y.length === 4 ? Number(y) : century * 100 + Number(y));
  for (const m of t.matchAll(/\b(\d{1,2}) ?([A-Z]{3,4})(?: ?[A-Z]{3,5})? ?(\d{4}|\d{2})\b/g)) {
    const month = MONTH_WORDS[m[2] as string];
    const d = month && iso(year(m[3] as string), month, Number(m[1]));
    if (d) out.push({ isos: [d] });
  }
  for (const m of t.matchAll(/(?<![\d])(\d{1,2}) (\d{1,2}) (\d{4}|\d{2})(?![\d])/g)) {
    const [a, b, y] = [Number(m[1]), Number(m[2]), year(m[3] as string)];
    const dayFirst = iso(y, b, a);
    const monthFirst = iso(y, a, b);
    const isos = (order === 'DMY' ? [dayFirst, monthFirst] : [monthFirst, dayFirst]).filter((x): x is string => x !== undefined);
    if (isos.length) out.push({ isos: [...new Set(isos)] });
  }
  for (const m of t.matchAll(/(?<![\d])(\d{4}) (\d{2}) (\d{2})(?![\d])/g)) {
    const d = iso(Number(m[1]), Number(m[2]), Number(m[3]));
    if (d) out.push({ isos: [d] });
  }
  return out;
}

const center = (l: VizLine) => (l.top + l.bottom) / 2;
const height = (l: VizLine) => Math.max(1, l.bottom - l.top);

/**
 * The value of a labelled field: the text after the label on its own line when `parse` takes it, else
 * the nearest line below the label (within two and a half label heights) that starts near it or
 * overlaps it sideways, when it is not itself a label and `parse` takes it.
 */
export function labelledValue(lines: VizLine[], label: RegExp, parse: (text: string) => string | undefined): { line: VizLine; value: string } | undefined {
  for (const l of lines) {
    const folded = foldText(l.text);
    const m = label.exec(folded);
    if (!m) continue;
    // Several labels on one line ("Surname / Nom", "Date of birth / Date de naissance"): what follows them all.
    const after = folded.slice(m.index + m[0].length).replace(ANY_LABEL_G, ' ').replace(/\s+/g, ' ').trim();
    const same = parse(after);
    if (same) return { line: l, value: same };
    const h = height(l);
    const next = lines
      .filter((o) => o !== l && center(o) > center(l) + h * 0.5 && o.top < l.bottom + 2.5 * h)
      .filter((o) => Math.abs(o.left - l.left) < 2 * h || (o.left < l.right && o.right > l.left))
      .sort((x, y) => x.top - y.top || Math.abs(x.left - l.left) - Math.abs(y.left - l.left))[0];
    const below = next && !ANY_LABEL.test(foldText(next.text)) ? parse(next.text) : undefined;
    if (next && below) return { line: next, value: below };
  }
  return undefined;
}

/** A printed name: Latin letters, spaces, hyphens and apostrophes, at least two letters, no digits. */
const isName = (raw: string) => /^[\p{Script=Latin}\s'’.-]+$/u.test(raw.trim()) && raw.replace(/[^\p{L}]/gu, '').length >= 2;
/** A printed document number: five or more letters and digits, one digit at least. */
const isNumber = (raw: string) => /^[A-Z0-9 ]{5,}$/.test(raw) && /\d/.test(raw);

/** Whether a printed value agrees with the MRZ's (the rules' own comparison for names). */
function agrees(spec: FieldSpec, mrz: string, printed: string, namePass: number): boolean {
  if (spec.kind === 'name') return sameName(mrz, printed, namePass).same;
  if (spec.kind === 'date') return printed.slice(2) === mrz.slice(2);
  const n = (s: string) => s.replace(/[^A-Z0-9]/g, '').replace(/O/g, '0').replace(/I/g, '1');
  return n(printed) === n(mrz);
}

/**
 * The printed fields of the zone as readings (source `printed`), each with its confidence: see the
 * module comment. `lines` must not include the MRZ lines.
 */
export function readViz(lines: VizLine[], mrz: MrzValues, order: DateOrder, namePass = NAME_AGREEMENT): VizReading[] {
  const texts = lines.map((l) => l.text);
  const out: VizReading[] = [];
  for (const spec of FIELDS) {
    const expected = spec.mrz(mrz);
    if (!expected) {
      // A name the MRZ read did not give (a names line whose fillers were lost): the printed one under its
      // label, to be read again before it counts (it may confirm another read of the MRZ's names).
      const printed = spec.kind === 'name' ? labelledValue(lines, spec.label, (text) => parse(spec, text, '', 0, order)) : undefined;
      if (printed && printed.line.mean >= MIN_MEAN) out.push({ field: spec.field, value: printed.value, source: 'printed', confidence: LABELLED, agrees: false, confirm: printed.line });
      continue;
    }
    const century = Number(expected.slice(0, 2));
    const found = searchMrzValue(spec, texts, expected, century, order);
    const labelled = labelledValue(lines, spec.label, (text) => parse(spec, text, expected, century, order));
    const value = labelled?.value;
    const reading = (v: string, confidence: number, agree: boolean, confirm?: VizLine): VizReading => ({ field: spec.field, value: v, source: 'printed', confidence, agrees: agree, ...(confirm && { confirm }) });
    if (labelled && value) {
      const clear = labelled.line.mean >= MIN_MEAN;
      if (agrees(spec, expected, value, namePass)) out.push(reading(value, clear ? LABELLED : DOUBTFUL, true));
      // The MRZ's value printed exactly on another line of the zone: the label was likely matched to another
      // field's line. (A near hit on the labelled line itself is that line, which a misread MRZ is one letter off.)
      else if ((found && found.exact && lines[found.line] !== labelled.line) || !clear) out.push(reading(value, DOUBTFUL, false));
      else out.push(reading(value, LABELLED, false, labelled.line));
    } else if (found) {
      // A hit a character off is the MRZ's value probably misread (ÆVARSDÓTTIR read EVARSDOTTIR): not a reading to disagree on.
      // A name or number found without its label counts only where a field's value is printed, a line of
      // its own: a word equal to it inside other text ("CITIZEN" in "BRITISH CITIZEN") is no reading of the field.
      const placed = spec.kind === 'date' || found.wholeLine;
      out.push(reading(found.value, found.exact && placed ? found.confidence : DOUBTFUL, found.confidence >= 0.85));
    }
  }
  return out;
}

/**
 * Whether every field the MRZ gives was found agreeing in the zone (then the rest of the zone need not be
 * read). A name the MRZ did not give counts as not found: its label is wanted to read it.
 */
export function allAgree(readings: VizReading[], mrz: MrzValues): boolean {
  return FIELDS.every((f) => (!f.mrz(mrz) && f.kind !== 'name') || readings.some((r) => r.field === f.field && r.agrees));
}

/**
 * The lines in the larger of the zone's two type sizes, where the values are printed (labels are
 * smaller): read first, as they are most of what a genuine document needs. Heights at least 0.75 of
 * the 75th percentile's.
 */
export function valueSized<T>(lines: T[], heightOf: (line: T) => number): T[] {
  const heights = lines.map(heightOf).sort((a, b) => a - b);
  const ref = heights[Math.floor(heights.length * 0.75)] ?? 0;
  return lines.filter((l) => heightOf(l) >= 0.75 * ref);
}

/** A labelled value as the field's kind reads it, or undefined when it does not look like one. */
function parse(spec: FieldSpec, text: string, mrz: string, century: number, order: DateOrder): string | undefined {
  if (spec.kind === 'name') return isName(text) && !ANY_LABEL.test(foldText(text)) ? foldText(text) : undefined;
  if (spec.kind === 'number') {
    const folded = foldText(text);
    return isNumber(folded) ? folded.replace(/ /g, '') : undefined;
  }
  const dates = vizDates(text, century, order)[0];
  if (!dates) return undefined;
  // A day/month order the print leaves open: the reading that agrees with the MRZ, if one does.
  return dates.isos.find((d) => d.slice(2) === mrz.slice(2)) ?? dates.isos[0];
}

/**
 * The MRZ's value found anywhere in the zone, with the search's confidence (text-search.ts findValue):
 * names and numbers as whole words, never inside a longer word; `wholeLine` when the hit is all its line says.
 */
function searchMrzValue(spec: FieldSpec, texts: string[], mrz: string, century: number, order: DateOrder): { value: string; confidence: number; exact: boolean; wholeLine: boolean; line: number } | undefined {
  if (spec.kind === 'date') {
    const line = texts.findIndex((t) => vizDates(t, century, order).some((d) => d.isos.some((x) => x.slice(2) === mrz.slice(2))));
    const hit = line >= 0 ? vizDates(texts[line] as string, century, order).flatMap((d) => d.isos).find((x) => x.slice(2) === mrz.slice(2)) : undefined;
    return hit ? { value: hit, confidence: LABELLED, exact: true, wholeLine: false, line } : undefined;
  }
  const hit = findValue(texts, mrz, { wholeWords: true });
  const compact = (t: string) => foldText(t).replace(/ /g, '');
  return hit ? { value: hit.text, confidence: Math.min(LABELLED, hit.confidence), exact: hit.score === 1, wholeLine: compact(texts[hit.line] ?? '') === compact(hit.text), line: hit.line } : undefined;
}
