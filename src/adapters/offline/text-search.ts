import { distance } from 'fastest-levenshtein';
import { foldText } from '../../domain/rules';

/**
 * Finding known values in OCR text. Reading printed fields by their labels fails on photographed
 * documents; searching the page for each expected value, with a character of tolerance, does not.
 * Pure functions.
 */

/** Upper case, accents stripped, punctuation to single spaces (the rules' folding). */
export const normalizeText = foldText;

export interface Found {
  /** The text as it stands on the document (normalised). */
  text: string;
  /** Index of the OCR line it was found in. */
  line: number;
  /** 1 for an exact match, less by each character of difference. */
  score: number;
  /**
   * How far the text may be trusted: its score when it differs from the searched value by at most one
   * character and in no digit; otherwise at most UNTRUSTED_HIT, below the rules' threshold. The bench
   * found hits two or more characters off (a glued, garbled "ISABELFCHER") or off in a digit (a house
   * number "S7" for 67) wrong a third of the time at 0.7–0.9: a house number or a second misread letter
   * is a different value, not a reading error to forgive.
   */
  confidence: number;
}

/** The confidence of a search hit too far from the searched value to be trusted. */
export const UNTRUSTED_HIT = 0.5;

/**
 * OCR reads the digits 0 and 1 as the letters O and I inside numbers ("1OO MAIN ST"). In a word made
 * of digits and only those letters, they are digits: a property of the page, not of the expected
 * value (postal codes such as "M5V 3L9" or "SW1A 1AA" have other letters and are left alone).
 */
export function digitsInNumbers(text: string): string {
  return text.replace(/\b[\dOI]*\d[\dOI]*\b/g, (w) => w.replace(/O/g, '0').replace(/I/g, '1'));
}

/** Characters of difference tolerated: none for short values (postal codes, which must also be whole words), one, and one more per 12 characters. */
const tolerance = (length: number): number => (length <= 5 ? 0 : 1 + Math.floor(length / 12));

/**
 * Smallest edit distance of `target` to any substring of `text`, and every position where such a
 * substring ends (approximate substring search: a match may start anywhere for free).
 */
function bestSubstring(text: string, target: string): { distance: number; ends: number[] } {
  const m = target.length;
  let prev = Array.from({ length: m + 1 }, (_, i) => i);
  let best = { distance: prev[m] as number, ends: [0] };
  for (let j = 1; j <= text.length; j++) {
    const cur = [0];
    for (let i = 1; i <= m; i++) {
      cur[i] = Math.min((prev[i] as number) + 1, (cur[i - 1] as number) + 1, (prev[i - 1] as number) + (target[i - 1] === text[j - 1] ? 0 : 1));
    }
    const d = cur[m] as number;
    if (d < best.distance) best = { distance: d, ends: [j] };
    else if (d === best.distance) best.ends.push(j);
    prev = cur;
  }
  return best;
}

/**
 * Finds `needle` in the lines, allowing a few character differences. Spaces are ignored on both
 * sides, because OCR drops and adds them ("LONDONSW1A2AA"). When the page shows the value exactly
 * (but for spaces) the value is returned as expected; otherwise as read, never bent towards the
 * expected value: of the equally close substrings, the one that covers whole words of the page is
 * reported ("NAKAMURA" for an expected "NAKAMURO", not "NAKAMUR"), and the rules compare.
 * `wholeWords`: only whole words of the page are compared (findWords), for values that are words.
 */
export function findValue(lines: string[], needle: string, options: { wholeWords?: boolean } = {}): Found | undefined {
  const target = normalizeText(needle);
  const compact = target.replace(/ /g, '');
  if (compact.length < 2) return undefined;
  const allowed = tolerance(compact.length);
  if (options.wholeWords) return findWords(lines, target, allowed);
  let best: Found | undefined;
  lines.forEach((raw, line) => {
    const spaced = normalizeText(raw);
    // Position in `spaced` of each character of the line without spaces.
    const at: number[] = [];
    for (let i = 0; i < spaced.length; i++) if (spaced[i] !== ' ') at.push(i);
    const text = at.map((i) => spaced[i]).join('');
    const hit = bestSubstring(text, compact);
    if (hit.distance > allowed) return;
    // A word boundary of the page sits before compact index i (i = 0 or i = text.length included):
    // a space, or a change between letters and digits ("TX78701" reads as TX | 78701).
    const digit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
    const boundary = (i: number) => i <= 0 || i >= text.length || (at[i] as number) - (at[i - 1] as number) > 1 || digit(text[i]) !== digit(text[i - 1]);
    // The matched substring: of every (start, end) at the smallest distance, whole words first, then the longest.
    let pick: { start: number; end: number; rank: number } | undefined;
    for (const end of hit.ends) {
      for (let s = Math.max(0, end - compact.length - allowed); s <= Math.min(end, end - compact.length + allowed); s++) {
        if (distance(text.slice(s, end), compact) !== hit.distance) continue;
        const rank = (boundary(s) ? 2 : 0) + (boundary(end) ? 2 : 0) + (end - s) / (compact.length + allowed + 1);
        if (!pick || rank > pick.rank) pick = { start: s, end, rank };
      }
    }
    // A short value (a state "ON", a postal code) counts only as whole words: never inside "LONDON".
    if (!pick || (compact.length <= 5 && !(boundary(pick.start) && boundary(pick.end)))) return;
    const found = digitsInNumbers(spaced.slice(at[pick.start] ?? 0, (at[pick.end - 1] ?? spaced.length - 1) + 1));
    const differences = Math.min(hit.distance, distance(found.replace(/ /g, ''), compact));
    const score = 1 - differences / compact.length;
    const digits = (t: string) => t.replace(/\D/g, '');
    const confidence = differences <= 1 && digits(found) === digits(compact) ? score : Math.min(score, UNTRUSTED_HIT);
    if (!best || score > best.score) best = { text: hit.distance === 0 ? target : found, line, score, confidence };
  });
  return best;
}

/**
 * findValue for values that are whole words (names, document numbers): only runs of whole words of a
 * line are compared with the value, so that a name is never found inside a longer word (AKAMURA in
 * NAKAMURA, an MRZ that lost a letter, is one letter off, not an exact hit). The words are reported as
 * the page prints them.
 */
function findWords(lines: string[], target: string, allowed: number): Found | undefined {
  const compact = target.replace(/ /g, '');
  let best: Found | undefined;
  lines.forEach((raw, line) => {
    const words = normalizeText(raw).split(' ').filter(Boolean);
    for (let i = 0; i < words.length; i++) {
      let run = '';
      for (let j = i; j < words.length && run.length <= compact.length + allowed; j++) {
        run += words[j];
        if (run.length < compact.length - allowed) continue;
        const d = distance(run, compact);
        if (d > allowed) continue;
        const text = d === 0 ? target : digitsInNumbers(words.slice(i, j + 1).join(' '));
        const differences = Math.min(d, distance(text.replace(/ /g, ''), compact));
        const score = 1 - differences / compact.length;
        const digits = (t: string) => t.replace(/\D/g, '');
        const confidence = differences <= 1 && digits(text) === digits(compact) ? score : Math.min(score, UNTRUSTED_HIT);
        if (!best || score > best.score) best = { text, line, score, confidence };
      }
    }
  });
  return best;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** The ways a date (YYYY-MM-DD) is printed on documents. */
export function dateSpellings(iso: string): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return [];
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  const mon = MONTHS[Number(mo) - 1] ?? '';
  return [`${d} ${mon} ${y}`, `${mo}/${d}/${y}`, `${d}.${mo}.${y}`, `${d}/${mo}/${y}`, `${y}-${mo}-${d}`, `${d}${mon}${y}`];
}

/** Finds a date in any of its printed spellings. */
export function findDate(lines: string[], iso: string): Found | undefined {
  let best: Found | undefined;
  for (const spelling of dateSpellings(iso)) {
    const target = normalizeText(spelling);
    const normalized = lines.map(normalizeText);
    normalized.forEach((text, line) => {
      const squeezed = text.replace(/ /g, '');
      if (squeezed.includes(target.replace(/ /g, ''))) best ??= { text: target, line, score: 1, confidence: 1 };
    });
    if (best) return best;
  }
  return best;
}

/** Day and month order of numeric dates: the US writes 11/03/2026 for 3 November, most others 03/11/2026. */
export type DateOrder = 'MDY' | 'DMY';

/** The numeric date order a document issued in `country` (ISO alpha-3) uses. */
export const dateOrderOf = (country: string): DateOrder => (country === 'USA' || country === 'FSM' || country === 'PLW' ? 'MDY' : 'DMY');

function validIso(y: number, m: number, d: number): string | undefined {
  if (y < 1900 || y > 2100 || m < 1 || m > 12 || d < 1) return undefined;
  if (d > new Date(Date.UTC(y, m, 0)).getUTCDate()) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * Dates printed on a page, as YYYY-MM-DD: "03 NOV 2026", "03NOV2026", "11/03/2026", "03.11.2026",
 * "03 11 2026", "2026-11-03", "November 3, 2026". Numeric day/month order: a part over 12 decides, otherwise `order`
 * (the issuing country's). Impossible dates (month 13, 31 April, year outside 1900–2100) are not dates.
 */
export function datesIn(lines: string[], order: DateOrder = 'MDY'): { iso: string; line: number }[] {
  const found: { iso: string; line: number }[] = [];
  const push = (iso: string | undefined, line: number) => iso && found.push({ iso, line });
  lines.forEach((raw, line) => {
    const text = raw.toUpperCase();
    for (const m of text.matchAll(/\b(\d{1,2})\s?(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\.?\s?(\d{4})\b/g)) {
      push(validIso(Number(m[3]), MONTHS.indexOf(m[2] as string) + 1, Number(m[1])), line);
    }
    for (const m of text.matchAll(/(?<![\d.\/-])(\d{1,2})([\/.\- ])(\d{1,2})\2(\d{4})(?![\d.\/-])/g)) {
      const a = Number(m[1]);
      const b = Number(m[3]);
      const dayFirst = a > 12 ? true : b > 12 ? false : order === 'DMY';
      push(dayFirst ? validIso(Number(m[4]), b, a) : validIso(Number(m[4]), a, b), line);
    }
    for (const m of text.matchAll(/(?<![\d.\/-])(\d{4})([\/.\-])(\d{2})\2(\d{2})(?![\d.\/-])/g)) push(validIso(Number(m[1]), Number(m[3]), Number(m[4])), line);
    // "March 3, 2026", "MAR 03 2026": the month named first, as the US writes dates in words.
    for (const m of text.matchAll(/\b(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\.?\s(\d{1,2}),?\s(\d{4})\b/g)) {
      push(validIso(Number(m[3]), MONTHS.indexOf(m[1] as string) + 1, Number(m[2])), line);
    }
  });
  return found;
}

/** Labels printed before an expiry date: "EXP", "Date of expiry", "Valid until", the licence field "4b". */
export const EXPIRY_LABEL = /\b(EXP|EXPIRES|EXPIRY|EXPIRATION|DATE OF EXPIRY|VALID UNTIL|VALID THRU|VALID TO|4B)\b/;

/**
 * Labels printed before the date a bill or statement was issued. Not a bare "Date" (it may be the
 * due date or a payment's), and never a due, payment or period date.
 */
export const ISSUE_LABEL = /(STATEMENT ?DATE|BILL(ING)? ?DATE|INVOICE ?DATE|ISSUE ?DATE|DATE ?OF ?ISSUE|DATE ?ISSUED|ISSUED ?ON|DATE ?OF ?STATEMENT|DATE ?OF ?BILL|LETTER ?DATE)/;

const MONTH_AS_READ = MONTHS.map((m) => [m, new RegExp(`(?<=\\d ?)${[...m].map((c) => ({ O: '[O0]', I: '[I1]', S: '[S5]', B: '[B8]' })[c] ?? c).join('')}(?=[A-Z]*\\.? ?\\d)`, 'g')] as const);

/**
 * A month's name between a day and a year as OCR may have read it, with its letters back: "100CT2026"
 * (O read as zero) is "10OCT2026". Only a whole month name between digits is touched.
 */
export function monthLetters(text: string): string {
  return MONTH_AS_READ.reduce((t, [month, pattern]) => t.replace(pattern, month), text.toUpperCase());
}

/** Whether a date's day and month can be told apart whatever the order: a month in words, a year first, or a part over 12. */
export function unambiguousDate(text: string): boolean {
  const t = text.toUpperCase();
  if (/(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)/.test(t) || /\b\d{4}[\/.\-]\d{2}[\/.\-]\d{2}\b/.test(t)) return true;
  const m = /\b(\d{1,2})[\/.\- ](\d{1,2})[\/.\- ]\d{4}\b/.exec(t);
  return !m || Number(m[1]) > 12 || Number(m[2]) > 12 || m[1] === m[2];
}

/** The date printed after `label` on its line, or alone on the next line (label above the value). */
export function labelledDate(lines: string[], label: RegExp, order: DateOrder): string | undefined {
  return labelledDateRead(lines, label, order)?.iso;
}

/** As labelledDate, with the text the date was read from (to tell whether its day/month order was certain). */
export function labelledDateRead(lines: string[], label: RegExp, order: DateOrder): { iso: string; text: string } | undefined {
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] as string).toUpperCase();
    const at = text.search(label);
    if (at < 0) continue;
    const rest = text.slice(at);
    const after = datesIn([rest], order)[0];
    if (after) return { iso: after.iso, text: rest };
    const next = lines[i + 1] ?? '';
    const below = datesIn([next], order)[0];
    if (below) return { iso: below.iso, text: next };
  }
  return undefined;
}
