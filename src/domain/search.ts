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
    .trim();
}

/**
 * A stored term keeps its first SEARCH_MAX characters (code points, never half a surrogate pair): a
 * search is a prefix of at most that many, and an index key has a size limit (1,024 bytes for a
 * DynamoDB sort key: 100 code points are at most 400 bytes of UTF-8).
 */
const indexed = (term: string) => Array.from(term).slice(0, SEARCH_MAX).join('');

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
    id: indexed(normaliseSearch(v.id)),
    ref: orNone(indexed(normaliseSearch(v.vendorReference ?? ''))),
    name: orNone(indexed(`${first} ${last}`.trim())),
    nameReversed: orNone(indexed(`${last} ${first}`.trim())),
  };
}
