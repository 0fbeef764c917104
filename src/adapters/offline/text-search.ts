import { distance } from 'fastest-levenshtein';

/**
 * Finding known values in OCR text. Reading printed fields by their labels fails on photographed
 * documents; searching the page for each expected value, with a character of tolerance, does not.
 * Pure functions.
 */

/** Upper case, accents stripped, punctuation to spaces, single spaces. */
export function normalizeText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export interface Found {
  /** The text as it stands on the document (normalised). */
  text: string;
  /** Index of the OCR line it was found in. */
  line: number;
  /** 1 for an exact match, less by each character of difference. */
  score: number;
}

/** Characters of difference tolerated: one, and one more per 12 characters of a long value. */
const tolerance = (length: number): number => 1 + Math.floor(length / 12);

/**
 * Finds `needle` in the lines, allowing a few character differences and OCR's dropped or added
 * spaces. Windows start and end at word boundaries of a line (or of two neighbouring lines, for values
 * that wrap).
 */
export function findValue(lines: string[], needle: string): Found | undefined {
  const target = normalizeText(needle);
  if (target.length < 2) return undefined;
  const compact = target.replace(/ /g, '');
  const allowed = target.length <= 3 ? 0 : tolerance(target.length);
  let best: Found | undefined;
  const normalized = lines.map(normalizeText);
  normalized.forEach((text, index) => {
    const words = text.split(' ').filter(Boolean);
    for (let i = 0; i < words.length; i++) {
      let window = '';
      for (let j = i; j < words.length; j++) {
        window = window ? `${window} ${words[j]}` : (words[j] as string);
        const squeezed = window.replace(/ /g, '');
        if (squeezed.length > compact.length + allowed) break;
        if (squeezed.length < compact.length - allowed) continue;
        const d = Math.min(distance(window, target), distance(squeezed, compact));
        if (d > allowed) continue;
        const score = 1 - d / Math.max(compact.length, 1);
        if (!best || score > best.score) best = { text: window, line: index, score };
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
      if (squeezed.includes(target.replace(/ /g, ''))) best ??= { text: target, line, score: 1 };
    });
    if (best) return best;
  }
  return best;
}

/** Dates printed on a page, as YYYY-MM-DD: "03 NOV 2026", "11/03/2026" (US order), "2026-11-03". */
export function datesIn(lines: string[]): { iso: string; line: number }[] {
  const found: { iso: string; line: number }[] = [];
  lines.forEach((raw, line) => {
    const text = raw.toUpperCase();
    for (const m of text.matchAll(/\b(\d{1,2})\s?(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\.?\s?(\d{4})\b/g)) {
      found.push({ iso: `${m[3]}-${String(MONTHS.indexOf(m[2] as string) + 1).padStart(2, '0')}-${(m[1] as string).padStart(2, '0')}`, line });
    }
    for (const m of text.matchAll(/\b(\d{2})\/(\d{2})\/(\d{4})\b/g)) found.push({ iso: `${m[3]}-${m[1]}-${m[2]}`, line });
    for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) found.push({ iso: `${m[1]}-${m[2]}-${m[3]}`, line });
  });
  return found.filter((d) => !Number.isNaN(Date.parse(`${d.iso}T00:00:00Z`)));
}
