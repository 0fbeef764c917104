import { distance } from 'fastest-levenshtein';

/** How names and words are compared by the rules: folded, sorted, and scored by edit distance. */

/** Upper case, accents stripped, punctuation and hyphens to single spaces: "Müller-Lüdenscheidt, Hans" → "MULLER LUDENSCHEIDT HANS". */
export function foldText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Lower-case, accents stripped, hyphens and punctuation to spaces, tokens sorted: "Müller-Lüdenscheidt, Hans" = "hans ludenscheidt muller". */
export function normalizeName(value: string): string {
  return foldText(value).toLowerCase().split(' ').filter(Boolean).sort().join(' ');
}

/** Similarity ratio 0..1 from the Levenshtein distance of normalised strings. */
export function similarity(a: string, b: string): number {
  const x = normalizeName(a);
  const y = normalizeName(b);
  if (x === y) return 1;
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 1 : 1 - distance(x, y) / longest;
}

/**
 * The weakest word match: each word of `expected` against its closest word of `extracted`. A long
 * name with one wrong letter in one word (NAKAMURO vs NAKAMURA) is close overall, but that word is not.
 */
export function weakestWord(expected: string, extracted: string): number {
  const words = normalizeName(extracted).split(' ').filter(Boolean);
  let weakest = 1;
  for (const w of normalizeName(expected).split(' ').filter(Boolean)) {
    const closest = Math.max(0, ...words.map((x) => 1 - distance(w, x) / Math.max(w.length, x.length)));
    weakest = Math.min(weakest, closest);
  }
  return weakest;
}
