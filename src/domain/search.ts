import type { Verification } from './entities';

/** Shortest and longest search text, after normalising. */
export const SEARCH_MIN = 2;
export const SEARCH_MAX = 100;

/**
 * The form in which search terms are stored and looked up: Unicode NFKD without combining marks
 * (é → e), lower case, runs of spaces and control characters as one space, trimmed. Matching is by
 * prefix of that form; there is no full-text search (no stemming, no fuzzy match, no infix).
 */
export function normaliseSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim()
    .slice(0, 200);
}

/**
 * What a verification is found by: its id, its vendor reference, and the expected person's name in
 * both orders ("ada lovelace", "lovelace ada"), so a prefix of the first or of the last name finds it.
 * Undefined when there is nothing to index (no reference, no name).
 */
export function searchTerms(v: Pick<Verification, 'id' | 'vendorReference' | 'expectedData'>) {
  const first = normaliseSearch(v.expectedData.person.first_name ?? '');
  const last = normaliseSearch(v.expectedData.person.last_name ?? '');
  const orNone = (s: string) => (s === '' ? undefined : s);
  return {
    id: normaliseSearch(v.id),
    ref: orNone(normaliseSearch(v.vendorReference ?? '')),
    name: orNone(`${first} ${last}`.trim()),
    nameReversed: orNone(`${last} ${first}`.trim()),
  };
}
