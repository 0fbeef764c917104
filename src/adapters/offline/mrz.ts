import { distance } from 'fastest-levenshtein';
import { parse } from 'mrz';
import { sameName } from '../../domain/consistency';
import { mrzCountry } from '../../domain/countries';
import type { Reading } from '../../domain/rule-types';

/**
 * Reading machine-readable zones (ICAO 9303) from OCR lines: pick the lines that look like an MRZ,
 * mend their length, parse with the `mrz` package, and repair look-alike characters only where a
 * check digit proves the repair (the `mrz` package itself fixes letters in digit-only fields such as
 * dates). Pure: the OCR engines live in engines.ts.
 */

export type MrzFormat = 'TD1' | 'TD2' | 'TD3';
export interface MrzRead {
  format: MrzFormat;
  lines: string[];
  /** All check digits valid (after any proven repair). */
  valid: boolean;
  fields: {
    documentCode: string;
    /** The API's alpha-3 when the code is a known ICAO 9303 code naming a country, else the code as read. */
    issuingState: string;
    surname: string;
    givenNames: string;
    documentNumber: string;
    /** As issuingState. */
    nationality: string;
    /** YYYY-MM-DD */
    dateOfBirth: string;
    sex: string;
    /** YYYY-MM-DD */
    expirationDate: string;
  };
  /** Fields whose check digit failed (their values are not to be trusted). */
  invalid: string[];
  /** OCR gave characters that were dropped: names (which have no check digit) are not to be trusted. */
  suspect: boolean;
  /** Code fields (issuingState, nationality) that ICAO 9303 does not know or that name no API country: not to be trusted. */
  unknownCodes: string[];
  /** An issuing state ICAO does not know, taken from the nationality it is one misread away from (stateMisread): not to be trusted. */
  repairedCodes: string[];
  /** Check digits that hold only after look-alike swaps (repair): they chose the swaps, so they do not also prove them. */
  repaired?: string[];
}

/** Upper case, MRZ alphabet only; common OCR renderings of the filler become `<`. */
export function normalizeLine(text: string): string {
  return text
    .toUpperCase()
    .replace(/[«‹≤〈《＜]/g, '<')
    .replace(/[×Х]/g, 'X')
    .replace(/\s+/g, '')
    .replace(/[^A-Z0-9<]/g, '');
}

/** Characters OCR gave that are neither the MRZ alphabet nor a known rendering of it: something was misread. */
const unexplained = (text: string): boolean => /[^A-Za-z0-9<«‹≤〈《＜×Х\s]/.test(text);

/** One OCR line as the MRZ line of `length` it should be, and whether OCR gave characters it could not place. */
export function mrzLine(text: string, length: number): { line: string; suspect: boolean } {
  return { line: fitLength(normalizeLine(text), length), suspect: unexplained(text) };
}

/** The index of the line that carries the names (no check digit covers them). */
export const nameLineIndex = (format: MrzFormat): number => (format === 'TD1' ? 2 : 0);

/** A line is an MRZ candidate when it is long enough and mostly the MRZ alphabet with fillers. */
function looksLikeMrz(raw: string, line: string): boolean {
  return line.length >= 26 && line.length / Math.max(1, raw.replace(/\s+/g, '').length) > 0.9 && (line.includes('<') || /^[A-Z0-9]{26,}$/.test(line));
}

/**
 * The MRZ part of an OCR line that merged it with printed text beside it ("Smart IDRe C0517…<<26"): a
 * line of no MRZ length gives its longest word with fillers, when that is long enough to be one.
 */
function mrzPart(raw: string): string {
  if ([30, 36, 44].some((n) => Math.abs(normalizeLine(raw).length - n) <= 4)) return raw;
  const word = raw.split(/\s+/).reduce((a, b) => (normalizeLine(b).includes('<') && b.length > a.length ? b : a), '');
  return word.length >= 26 ? word : raw;
}

/**
 * Whether any of a run's line reads shows an MRZ line, however badly read: a pair of fillers, or a
 * long word of the MRZ alphabet alone. Looser than the lines findMrzLines keeps: it decides whether a
 * run is worth a read at a larger scale, so a misread MRZ must pass. Printed text (words and spaces,
 * lower case, another script) and an MRZ read upside down (its fillers come out as `>`) do not.
 */
export function readsAsMrz(texts: string[]): boolean {
  return texts.some((text) => {
    const raw = mrzPart(text);
    const line = normalizeLine(raw);
    const kept = line.length / Math.max(1, raw.replace(/\s+/g, '').length);
    return kept > 0.8 && ((line.length >= 12 && line.includes('<<')) || raw.split(/\s+/).some((w) => /^[A-Z0-9<]{20,}$/.test(w)));
  });
}

/** Mends a line to `length` by adding or removing fillers in its longest run of `<` (where OCR drops or doubles them). */
export function fitLength(line: string, length: number): string {
  let s = line;
  while (s.length !== length) {
    const runs = [...s.matchAll(/<+/g)];
    if (runs.length === 0) return s.length > length ? s.slice(0, length) : s.padEnd(length, '<');
    const longest = runs.reduce((a, b) => (b[0].length > a[0].length ? b : a));
    const at = (longest.index ?? 0) + longest[0].length;
    s = s.length < length ? `${s.slice(0, at)}<${s.slice(at)}` : `${s.slice(0, at - 1)}${s.slice(at)}`;
  }
  return s;
}

/** Finds the MRZ lines among OCR lines (top to bottom) and the format their lengths suggest. */
export function findMrzLines(texts: string[]): MrzLines | undefined {
  const all = texts.map(mrzPart).map((t) => ({ raw: t, line: normalizeLine(t) }));
  const kept = all.filter((c) => looksLikeMrz(c.raw, c.line));
  const suspect = kept.some((c) => unexplained(c.raw));
  const found = pickLines(kept.map((c) => c.line), all.map((c) => c.line));
  return found && { ...found, suspect: suspect || found.suspect };
}

/** MRZ lines found in OCR output; `suspect` when OCR produced characters that had to be dropped, or a names line read short was mended. */
export interface MrzLines {
  format: MrzFormat;
  lines: string[];
  suspect: boolean;
  /** The engine that read them (PaddleOCR when absent): reads by different engines are independent, reads by one engine of one print are not. */
  engine?: OcrEngine;
}

/** The OCR engines that read MRZ lines (engines.ts). */
export type OcrEngine = 'paddle' | 'tesseract';

/** `suspect` when a names line read short was mended (how many fillers OCR merged, perhaps a separator, is unknown). */
function pickLines(candidates: string[], all: string[]): MrzLines | undefined {
  const near = (line: string, n: number) => Math.abs(line.length - n) <= 4;
  // An MRZ shows a run of fillers somewhere (the names' separator or their closing fillers) and ends in
  // its data line (dates and check digits): printed text of the MRZ's alphabet and length (a page of
  // capitals beside the document) shows neither.
  const mrzLike = (lines: string[], data: string) => lines.some((l) => l.includes('<<')) && data.replace(/\D/g, '').length >= 8;
  for (let i = 0; i + 2 < candidates.length; i++) {
    const three = candidates.slice(i, i + 3);
    if (three.length === 3 && three.every((l) => near(l, 30)) && mrzLike(three, three[1] as string)) return { format: 'TD1', lines: three.map((l) => fitLength(l, 30)), suspect: false };
  }
  for (let i = 0; i + 1 < candidates.length; i++) {
    const [a, b] = candidates.slice(i, i + 2) as [string, string];
    if (!mrzLike([a, b], b)) continue;
    if (near(a, 44) && near(b, 44)) return { format: 'TD3', lines: [fitLength(a, 44), fitLength(b, 44)], suspect: false };
    if (near(a, 36) && near(b, 36)) return { format: 'TD2', lines: [fitLength(a, 36), fitLength(b, 36)], suspect: false };
  }
  // A TD3 whose names line was read short (OCR merges runs of fillers) or missed: the data line still
  // carries number, dates and nationality; the line above it is the names line when it starts as one.
  const at = all.findIndex((l) => near(l, 44) && /^[A-Z0-9<]{9}\d[A-Z<]{3}\d{6}/.test(l));
  const data = all[at];
  if (!data) return undefined;
  // It may follow printed text it was merged with, and a line of text beside the document may come between
  // them: it starts where a document code, a known state and a name do.
  const names =
    all
      .slice(Math.max(0, at - 2), at)
      .reverse()
      .map((l) => {
        const start = [...l.matchAll(/P[A-Z<]([A-Z<]{3})[A-Z]+<</g)].find((m) => mrzCountry(m[1] as string).known);
        return start ? l.slice(start.index) : '';
      })
      .find(Boolean) ?? '';
  const short = names.length >= 12 && names.length < 44;
  return { format: 'TD3', lines: [short ? fitLength(names, 44) : `P<${data.slice(10, 13)}${'<'.repeat(39)}`, fitLength(data, 44)], suspect: short };
}

const LOOK_ALIKE: Record<string, string> = { O: '0', '0': 'O', I: '1', '1': 'I', B: '8', '8': 'B', S: '5', '5': 'S' };
const CHECKED = ['documentNumberCheckDigit', 'birthDateCheckDigit', 'expirationDateCheckDigit', 'compositeCheckDigit', 'personalNumberCheckDigit'];

type Parsed = ReturnType<typeof parse>;
const failedChecks = (p: Parsed): number => p.details.filter((d) => d.field && CHECKED.includes(d.field) && !d.valid).length;

/**
 * Tries look-alike swaps (O↔0, I↔1, B↔8, S↔5) in the positions covered by failing check digits and
 * keeps a swap set only when it makes more check digits pass; a repair no check digit proves is never made.
 */
function repair(lines: string[], parsed: Parsed): { lines: string[]; parsed: Parsed } {
  const failing = parsed.details.filter((d) => d.field && CHECKED.includes(d.field) && !d.valid);
  const positions = new Set<string>();
  for (const d of failing) {
    for (const r of d.ranges) {
      for (let i = r.start; i < r.end; i++) if ((lines[r.line] ?? '')[i]! in LOOK_ALIKE) positions.add(`${r.line}:${i}`);
    }
  }
  const spots = [...positions].map((p) => p.split(':').map(Number) as [number, number]).slice(0, 10);
  let best = { lines, parsed, failed: failedChecks(parsed) };
  for (let mask = 1; mask < 1 << spots.length && best.failed > 0; mask++) {
    const next = lines.map((l) => [...l]);
    spots.forEach(([line, i], bit) => {
      if (mask & (1 << bit)) next[line]![i] = LOOK_ALIKE[next[line]![i]!]!;
    });
    const candidate = next.map((l) => l.join(''));
    const p = safeParse(candidate);
    if (p && failedChecks(p) < best.failed) best = { lines: candidate, parsed: p, failed: failedChecks(p) };
  }
  return best;
}

function safeParse(lines: string[]): Parsed | undefined {
  try {
    return parse(lines, { autocorrect: true });
  } catch {
    return undefined;
  }
}

/** YYMMDD → YYYY-MM-DD; birth dates in the future belong to the previous century, expiry dates to this one. */
export function mrzDate(yymmdd: string | null | undefined, kind: 'birth' | 'expiry', today = new Date()): string {
  if (!yymmdd || !/^\d{6}$/.test(yymmdd)) return '';
  const yy = Number(yymmdd.slice(0, 2));
  const current = today.getUTCFullYear() % 100;
  const century = kind === 'birth' ? (yy > current ? 1900 : 2000) : yy >= 70 ? 1900 : 2000;
  return `${century + yy}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}

/** Names: `<` separates words; digits cannot occur in an MRZ name, so they are misread letters. */
const name = (value: string | null | undefined): string =>
  (value ?? '').replace(/0/g, 'O').replace(/1/g, 'I').replace(/8/g, 'B').replace(/5/g, 'S').replace(/</g, ' ').replace(/\s+/g, ' ').trim();

const rawRange = (p: Parsed, field: string): string => {
  const d = p.details.find((x) => x.field === field);
  return (d?.ranges[0] as { raw?: string } | undefined)?.raw?.replace(/</g, '') ?? '';
};

/** Two-letter endings of K, C and L that are common in names (HALL, BECK, FALK): not taken as misread fillers. */
const NAME_ENDINGS = new Set(['LL', 'CK', 'LK']);

/**
 * Where a `<<` separator read as letters shows in names that have none: next to a single filler (`<K`,
 * `C<`: one of the two fillers kept) or as a pair of the letters OCR gives for fillers (KK, CC, ZK; not
 * LL, which names are full of).
 */
const LOST_SEPARATOR = /<[KCLZ]|[KCLZ]<|KK|CC|ZK|KZ|ZZ/;

/**
 * Structural checks of an MRZ name field (the names line without its document code and state), which
 * no check digit covers. OCR reads the `<` filler as K, C or L, and two reads of the same pixels
 * repeat the same misreading, so agreement proves nothing; the layout does: names, `<<`, given names
 * separated by `<`, then fillers to the line's fixed length.
 * - After the first filler of the closing run, only fillers may follow: K, C and L there ("ELENA<K<KK<<")
 *   are fillers again. A repaired one-letter part could have been a real initial, so that leaves the names
 *   untrusted; longer parts of only K/C/L are no name, so their repair is proven.
 * - Three fillers in a row end the names (inside them `<<` separates and `<` joins): letters after them
 *   ("MILICA<<<<<<<<KK<<KR") are fillers read as letters, untrusted.
 * - A name ending in three or more of K/C/L ("CARMENKKKKK") ends in fillers read as letters: they become
 *   fillers, untrusted (how many of them belonged to the name is unknown). A two-letter such ending that
 *   is not a common name ending (KK, CC, KC…) is left as read, untrusted.
 * - Names with no `<<` between them lost their separator when they show where it was (LOST_SEPARATOR, the
 *   leftmost, as the surname comes first): it is put back, untrusted; when it was read as two letters, one
 *   of them just before the closing fillers is a filler too ("GAIMUKKSAKURAK"). Without such a trace, names that
 *   contain a run of K/C/L ("ESPANOLA<ESPANOLAKLCARMEN") are untrusted as read.
 */
export function checkNameField(field: string): { field: string; suspect: boolean } {
  let suspect = false;
  let f = field;
  const tail = /<[KCL<]*$/.exec(f);
  if (tail && /[KCL]/.test(tail[0])) {
    if (tail[0].split('<').some((part) => part.length === 1)) suspect = true;
    f = f.slice(0, tail.index) + '<'.repeat(tail[0].length);
  }
  const closing = /<{3,}/.exec(f);
  if (closing && /[^<]/.test(f.slice(closing.index))) {
    suspect = true;
    f = f.slice(0, closing.index).padEnd(f.length, '<');
  }
  const names = f.replace(/<+$/, '');
  const ending = /[KCL]+$/.exec(names)?.[0] ?? '';
  if (ending.length >= 3) {
    suspect = true;
    f = names.slice(0, names.length - ending.length).padEnd(f.length, '<');
  } else if (ending.length === 2 && !NAME_ENDINGS.has(ending)) {
    suspect = true;
  }
  const kept = f.replace(/<+$/, '');
  const lost = kept.includes('<<') ? null : LOST_SEPARATOR.exec(kept.slice(1, -1));
  if (lost) {
    suspect = true;
    const at = lost.index + 1;
    f = `${f.slice(0, at)}<<${f.slice(at + 2)}`;
    // A separator read as two letters shows that this read gives fillers as those letters: one of
    // them ending the names ("SAKURAK<<<") is the first closing filler.
    const end = f.replace(/<+$/, '');
    if (!lost[0].includes('<') && lost[0].includes(end.at(-1) ?? '<')) f = end.slice(0, -1).padEnd(f.length, '<');
  } else if (!kept.includes('<<') && /[A-Z][KCL]{2,}[A-Z]/.test(kept)) {
    suspect = true;
  }
  return { field: f, suspect };
}

function withoutFillerMisreads(found: MrzLines): MrzLines {
  const index = nameLineIndex(found.format);
  const from = found.format === 'TD1' ? 0 : 5;
  const line = found.lines[index] ?? '';
  const { field, suspect } = checkNameField(line.slice(from));
  if (field === line.slice(from) && !suspect) return found;
  return { ...found, lines: found.lines.map((l, i) => (i === index ? line.slice(0, from) + field : l)), suspect: found.suspect || suspect };
}

/** Letters OCR confuses in the MRZ font, both ways (digits are read as their look-alike letters first). */
const CONFUSED = new Set(['MN', 'NM', 'OC', 'CO', 'OD', 'DO', 'OQ', 'QO', 'IL', 'LI', 'EF', 'FE', 'UV', 'VU']);
const asLetters = (code: string): string => code.replace(/0/g, 'O').replace(/1/g, 'I').replace(/5/g, 'S').replace(/8/g, 'B');

/**
 * Whether `read` is `code` misread once: one character wrong, only letters OCR confuses wrong (M/N,
 * O/C/D/Q, I/L, E/F, U/V), or the code shifted by one place (a character of the line lost or doubled).
 */
function stateMisread(read: string, code: string): boolean {
  const r = asLetters(read.replace(/</g, ''));
  if (r.length !== 3 || code.length !== 3 || r === code) return false;
  const wrong = [...r].map((c, i) => [c, code[i] as string]).filter(([a, b]) => a !== b);
  return wrong.length === 1 || wrong.every(([a, b]) => CONFUSED.has(`${a}${b}`)) || r.slice(1) === code.slice(0, 2) || r.slice(0, 2) === code.slice(1);
}

/** Parses MRZ lines found by findMrzLines into fields, with proven repairs. */
export function readMrz(raw: MrzLines, today?: Date): MrzRead | undefined {
  const found = withoutFillerMisreads(raw);
  const first = safeParse(found.lines);
  if (!first) return undefined;
  const { lines, parsed } = repair(found.lines, first);
  const f = parsed.fields as Record<string, string | null>;
  const invalid = parsed.details.filter((d) => d.field && CHECKED.includes(d.field) && !d.valid).map((d) => d.field as string);
  const repaired = first.details.filter((d) => d.field && CHECKED.includes(d.field) && !d.valid && !invalid.includes(d.field)).map((d) => d.field as string);
  const nameLine = found.format === 'TD1' ? lines[2] ?? '' : (lines[0] ?? '').slice(5);
  const [surname = '', given = ''] = nameLine.split('<<');
  const codes = {
    issuingState: mrzCountry(f.issuingState ?? rawRange(parsed, 'issuingState')),
    nationality: mrzCountry(f.nationality ?? rawRange(parsed, 'nationality')),
  };
  const code = (field: keyof typeof codes): string => codes[field].iso3 ?? (f[field] ?? rawRange(parsed, field));
  // Most documents are issued by the holder's own state: an issuing state that is no code at all and one
  // misread away from the nationality is taken to be it (reported untrusted, as no check digit proves it).
  const repairedCodes = !codes.issuingState.iso3 && codes.nationality.iso3 && stateMisread(code('issuingState'), code('nationality')) ? ['issuingState'] : [];
  if (repairedCodes.length) codes.issuingState = codes.nationality;
  return {
    format: found.format,
    lines,
    valid: invalid.length === 0,
    invalid,
    suspect: found.suspect,
    unknownCodes: (Object.keys(codes) as (keyof typeof codes)[]).filter((k) => !codes[k].iso3),
    repairedCodes,
    repaired,
    fields: {
      documentCode: (lines[0] ?? '').slice(0, 2).replace(/</g, ''),
      issuingState: code('issuingState'),
      surname: name(f.lastName ?? surname),
      givenNames: name(f.firstName ?? given),
      documentNumber: (parsed.documentNumber ?? f.documentNumber ?? rawRange(parsed, 'documentNumber')).replace(/</g, ''),
      nationality: code('nationality'),
      dateOfBirth: mrzDate(f.birthDate ?? rawRange(parsed, 'birthDate'), 'birth', today),
      sex: f.sex === 'male' ? 'M' : f.sex === 'female' ? 'F' : '',
      expirationDate: mrzDate(f.expirationDate ?? rawRange(parsed, 'expirationDate'), 'expiry', today),
    },
  };
}

/** Letters OCR gives for the `<` filler (the names line has no check digit to catch them). */
const FILLER_LIKE = new Set(['K', 'C', 'L', 'Z', 'R']);

/**
 * The names line from several reads: where one read shows a filler and the others a letter OCR gives
 * for fillers, it is a filler (a real K is not read as `<`, a `<` often as K); elsewhere the majority.
 * Reads whose other characters do not line up with the first read's (a dropped character shifts the
 * line) are left out.
 */
export function mergeNameLines(lines: string[]): string {
  const [first = '', ...rest] = lines;
  const aligned = [first, ...rest.filter((l) => lineUp(first, l))];
  const voted = majority(aligned);
  return [...voted].map((c, i) => (aligned.some((l) => l[i] === '<') && aligned.every((l) => l[i] === '<' || FILLER_LIKE.has(l[i] as string)) ? '<' : c)).join('');
}

/** Two reads line up when at least 80% of the positions where both show a letter or digit that is no filler look-alike agree. */
function lineUp(a: string, b: string): boolean {
  let both = 0;
  let same = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x === '<' || y === '<' || FILLER_LIKE.has(x) || FILLER_LIKE.has(y)) continue;
    both++;
    if (x === y) same++;
  }
  return a.length === b.length && same >= both * 0.8;
}

/** The character each position of equal-length lines shows most often (the first read wins a tie). */
function majority(lines: string[]): string {
  const length = lines[0]?.length ?? 0;
  let out = '';
  for (let i = 0; i < length; i++) {
    const counts = new Map<string, number>();
    for (const l of lines) counts.set(l[i] as string, (counts.get(l[i] as string) ?? 0) + 1);
    out += [...counts.entries()].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  }
  return out;
}

export interface CombinedRead {
  read: MrzRead;
  /** Whether the name line was read the same by at least two reads. */
  namesAgreed: boolean;
  /** Every read's names line, with the engine that read it: the candidates mrzNames weighs against the printed zone. */
  nameReads?: NameRead[];
  /** Another document number, differing only in look-alike characters, passes the same check digits (e.g. OO and 00), or the number's check digit holds only after a repair no read gave (unprovenNumber). */
  numberAmbiguous: boolean;
}

/**
 * Check digits cannot tell some look-alike pairs apart (two O↔0 swaps at weights 7 and 3 change the
 * sum by 240): such a number is reported as read but not trusted.
 */
function numberAmbiguous(read: MrzRead): boolean {
  const d = read.lines.join('\n');
  const numberLine = read.format === 'TD1' ? 0 : 1;
  const start = read.format === 'TD1' ? 5 : 0;
  const line = read.lines[numberLine] ?? '';
  const spots = [...line.slice(start, start + 9)].map((c, i) => (c in LOOK_ALIKE ? start + i : -1)).filter((i) => i >= 0).slice(0, 8);
  for (let mask = 1; mask < 1 << spots.length; mask++) {
    const chars = [...line];
    spots.forEach((at, bit) => {
      if (mask & (1 << bit)) chars[at] = LOOK_ALIKE[chars[at] as string] as string;
    });
    const lines = [...read.lines];
    lines[numberLine] = chars.join('');
    const other = safeParse(lines);
    if (other && failedChecks(other) === 0 && lines.join('\n') !== d) return true;
  }
  return false;
}

/** Where the document number stands on its line: [line, start]. */
const numberAt = (format: MrzFormat): [number, number] => (format === 'TD1' ? [0, 5] : [1, 0]);

/**
 * A document number whose check digit holds only after look-alike swaps that no read gave as read. The
 * swaps were chosen because the check digit then holds: with several look-alike characters some swap set
 * passes by chance one time in ten each, after a misread that no swap explains (Cousine's J read as 3,
 * then a correctly read 0 swapped to O: F39O36927 for FJ9036927, its check digit and the composite
 * holding, as the composite weighs the number's characters as its own check digit does). Such a number
 * is reported as repaired, untrusted, unless a read gave it without repair.
 */
function unprovenNumber(read: MrzRead, reads: MrzLines[]): boolean {
  if (!read.repaired?.includes('documentNumberCheckDigit')) return false;
  const [line, start] = numberAt(read.format);
  const number = (read.lines[line] ?? '').slice(start, start + 10);
  return !reads.some((r) => (r.lines[line] ?? '').slice(start, start + 10) === number);
}

/**
 * Combines independent reads of one MRZ: for each line, every read's version (and, with three reads
 * or more, their character-wise majority) is a candidate; the combination with the most check digits
 * holding, then the most reads behind it, wins. Names have no check digit: their line is the reads'
 * merge (mergeNameLines), trusted only when at least two reads gave exactly that line.
 */
export function combineReads(reads: MrzLines[], today?: Date): CombinedRead | undefined {
  const format = reads[0]?.format;
  const same = reads.filter((r) => r.format === format);
  if (!format || same.length === 0) return undefined;
  const count = same[0]!.lines.length;
  const nameLine = nameLineIndex(format);
  const options = Array.from({ length: count }, (_, i) => {
    const base = same.map((r) => r.lines[i] as string);
    if (i === nameLine) {
      // No check digit chooses among the names lines: they are merged.
      const merged = mergeNameLines(base);
      return [{ line: merged, support: base.filter((v) => v === merged).length }];
    }
    const extra = base.length >= 3 ? [majority(base)] : [];
    // A first line whose document code letter was lost at the edge: the check digits decide whether
    // putting it back aligns the line.
    if (i === 0) for (const v of base) if (/^<[A-Z]{3}/.test(v)) extra.push(fitLength(`${format === 'TD3' ? 'P' : 'I'}${v}`, v.length));
    return [...new Set([...base, ...extra])].map((line) => ({ line, support: base.filter((v) => v === line).length }));
  });
  let best: { read: MrzRead; score: number; support: number[] } | undefined;
  const walk = (i: number, chosen: { line: string; support: number }[]) => {
    if (i === count) {
      const read = readMrz({ format, lines: chosen.map((c) => c.line), suspect: same.some((r) => r.suspect) }, today);
      if (!read) return;
      const score = -10 * read.invalid.length + chosen.reduce((a, c) => a + c.support, 0);
      if (!best || score > best.score) best = { read, score, support: chosen.map((c) => c.support) };
      return;
    }
    for (const option of options[i] ?? []) walk(i + 1, [...chosen, option]);
  };
  walk(0, []);
  if (!best) return undefined;
  const b = best as { read: MrzRead; support: number[] };
  const ambiguous = numberAmbiguous(b.read) || unprovenNumber(b.read, same);
  const nameReads = same.map((r) => ({ line: r.lines[nameLine] as string, engine: r.engine ?? 'paddle' }));
  if (ambiguous) {
    // Issuers avoid the letter O in document numbers (it reads as 0): the digit reading is reported, untrusted.
    const digits = b.read.fields.documentNumber.replace(/O/g, '0');
    const lines = b.read.lines.map((l, i) => (i === (format === 'TD1' ? 0 : 1) ? l.replace(b.read.fields.documentNumber, digits) : l));
    const read = readMrz({ format, lines, suspect: b.read.suspect }, today);
    if (read?.valid) return { read, namesAgreed: (b.support[nameLine] ?? 0) >= 2, numberAmbiguous: true, nameReads };
  }
  return { read: b.read, namesAgreed: (b.support[nameLine] ?? 0) >= 2, numberAmbiguous: ambiguous, nameReads };
}

/** One read of an MRZ's names line (MRZ alphabet, the line's length) and the engine that gave it. */
export interface NameRead {
  line: string;
  engine: OcrEngine;
}

/** A names line as an engine read it (raw OCR text), fitted to the MRZ's names line: a candidate for mrzNames. */
export function nameRead(text: string, read: MrzRead, engine: OcrEngine): NameRead {
  return { line: mrzLine(text, read.lines[nameLineIndex(read.format)]?.length ?? 0).line, engine };
}

/** Surname and given names of a names line, its filler misreads mended by the layout (checkNameField). */
function namesOf(line: string, format: MrzFormat): { surname: string; givenNames: string } {
  const from = format === 'TD1' ? 0 : 5;
  const [surname = '', given = ''] = checkNameField(line.slice(from)).field.split('<<');
  return { surname: name(surname), givenNames: name(given) };
}

/** Whether a names line shows the separator between surname and given names (`<<` between letters): a read that lost its fillers does not. */
const separated = (line: string, format: MrzFormat): boolean => /[A-Z]<<[A-Z]/.test(line.slice(format === 'TD1' ? 0 : 5));

/**
 * How far the issuing state read from an MRZ may be trusted. No check digit covers it, and the data
 * line's check digits prove nothing about the first line's alignment: a filler lost before it shifts
 * another code into its place (P<ESP read PESP, mended to P<SPM: a real code, Saint Pierre and
 * Miquelon, with every check digit holding). It is trusted (0.9) only when the nationality, read on the
 * data line whose alignment the check digits prove, gives the same code. A code ICAO 9303 does not know
 * or that names no API country: 0.3; one repaired from the nationality, or any other: 0.5.
 */
export function issuingStateTrust(read: MrzRead): number {
  if (read.unknownCodes.includes('issuingState')) return 0.3;
  if (read.repairedCodes.includes('issuingState') || !read.valid) return 0.5;
  return read.fields.issuingState === read.fields.nationality ? 0.9 : 0.5;
}

/** A name's letters as the MRZ writes them (transliterated, no spaces), to measure how far two spellings are. */
const compactName = (value: string): string => value.toUpperCase().normalize('NFKD').replace(/\p{M}+/gu, '').replace(/[^A-Z]/g, '');

/** Confidence of an MRZ name that an independent source supports (the printed zone, another engine). */
export const SUPPORTED_NAME = 0.95;
/** Confidence of an MRZ name nothing independent supports: below the rules' trust threshold. */
export const UNSUPPORTED_NAME = 0.5;
/** Confidence from which a printed reading supports an MRZ name: the rules' min_confidence (config/rules.json). */
const PRINTED_SUPPORT = 0.6;

/** A name field as reported: its value and how far it may be trusted. */
export interface NameField {
  value: string;
  confidence: number;
  /** What supports it: the printed zone, a second engine, or nothing. */
  support: 'printed' | 'engines' | 'none';
}

/** Whether two spellings of a name are the same name exactly (transliteration, spaces and hyphens aside; never by similarity). */
function sameExactly(mrz: string, printed: string): boolean {
  if (!mrz || !printed) return false;
  const { same, why } = sameName(mrz, printed, 2);
  return same && why !== 'the MRZ carries the first words of the printed name';
}

/**
 * The MRZ's surname and given names and how far each may be trusted. Names have no check digit, and
 * reads of one print by one engine repeat the same misreading when the font itself misleads the engine
 * (an MRZ printed in DejaVu Sans Mono read twice as SOFA for SOFIA): their agreement supports nothing.
 * A name is trusted (SUPPORTED_NAME) only when something independent gives exactly the same name:
 * - the printed zone: a printed reading of that field at or above PRINTED_SUPPORT (read under its label,
 *   or a whole printed line) equal to the merged read's value, or to one read's value (the read the
 *   printed zone confirms is reported: two sources agree on it);
 * - another engine: a read by an engine other than the merged read's equal to it (or two reads by
 *   different engines equal to each other).
 * Otherwise the merged read's value is reported at UNSUPPORTED_NAME (or, when the merge lost the names'
 * separator, the first read that kept it; when no read gave a name, or the printed name is a few letters
 * from the MRZ's, the printed one). `extra` are names lines read after the first reads (another cut,
 * another engine: nameRead).
 */
export function mrzNames(combined: CombinedRead, printed: Reading[], extra: NameRead[] = []): { surname: NameField; givenNames: NameField } {
  const { read } = combined;
  const reads = [...(combined.nameReads ?? []), ...extra].map((r) => ({ ...namesOf(r.line, read.format), engine: r.engine, line: r.line }));
  const merged = { surname: read.fields.surname, givenNames: read.fields.givenNames };
  const decide = (key: 'surname' | 'givenNames', path: string): NameField => {
    const own = merged[key];
    const support = printed.filter((r) => r.source === 'printed' && r.field === path && (r.confidence ?? 1) >= PRINTED_SUPPORT).map((r) => r.value);
    if (support.some((p) => sameExactly(own, p))) return { value: own, confidence: SUPPORTED_NAME, support: 'printed' };
    const confirmed = reads.find((r) => support.some((p) => sameExactly(r[key], p)));
    if (confirmed) return { value: confirmed[key], confidence: SUPPORTED_NAME, support: 'printed' };
    // Two engines: the merged value (PaddleOCR's reads) given again by another engine, or any two engines' reads alike.
    const engines = (value: string) => new Set(reads.filter((r) => value !== '' && r[key] === value).map((r) => r.engine)).size >= 2;
    const byEngines = [own, ...reads.map((r) => r[key])].find(engines);
    if (byEngines !== undefined) return { value: byEngines, confidence: SUPPORTED_NAME, support: 'engines' };
    // A merge without the names' separator (reads that lost the fillers): the names of the first read that
    // kept it; no read of the names line at all: the printed name, untrusted (one source).
    const kept = separated(read.lines[nameLineIndex(read.format)] ?? '', read.format) ? own : reads.find((r) => separated(r.line, read.format))?.[key];
    const value = kept ?? (own || support[0] || '');
    // A printed name a few letters from the MRZ's is the same name misread in the MRZ (MARN for MARTIN in
    // Cousine): the printed one is reported, untrusted (one source). Far from it, it is another name (a
    // re-printed front over a genuine MRZ): the MRZ's stays.
    const near = support.find((p) => value !== '' && distance(compactName(value), compactName(p)) <= Math.max(1, Math.round(compactName(p).length / 3)));
    return { value: near ?? value, confidence: UNSUPPORTED_NAME, support: 'none' };
  };
  return { surname: decide('surname', 'person.surname'), givenNames: decide('givenNames', 'person.given_names') };
}
