import type { NameToken } from './normalise';

/**
 * How two name tokens compare, from the strongest kind of evidence to the weakest. Scores follow
 * the shape of OpenSanctions' logic-v2 (MIT): a literal match is 1, an edit within a budget that
 * grows with the length loses in proportion to the edits, a phonetic-only or skeleton match is a
 * fixed, lower score, an initial is weak and weighs little.
 */
export type TokenMatchKind = 'exact' | 'article' | 'edit' | 'phonetic' | 'skeleton' | 'initial' | 'joined';

export interface TokenMatch {
  kind: TokenMatchKind;
  score: number;
}

/** Edits allowed between two tokens of this (longer) length: none up to 3 letters, then 1, 2, 3. */
export function editBudget(length: number): number {
  if (length <= 3) return 0;
  if (length <= 6) return 1;
  if (length <= 10) return 2;
  return 3;
}

/**
 * Optimal-string-alignment distance (Damerau-Levenshtein with adjacent transpositions), stopping as
 * soon as the distance must exceed `max` (returns max + 1 then): the budget bounds the work.
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (lb + 1 > rows[0].length) {
    rows[0] = new Int32Array(lb + 1);
    rows[1] = new Int32Array(lb + 1);
    rows[2] = new Int32Array(lb + 1);
  }
  let prevPrev = rows[0];
  let prev = rows[1];
  let cur = rows[2];
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) v = Math.min(v, (prevPrev[j - 2] as number) + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prevPrev;
    prevPrev = prev;
    prev = cur;
    cur = t;
  }
  return prev[lb] as number;
}

/** Three reused rows of the distance table (the matcher is synchronous: no two calls interleave). */
const rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Similarity of two whole strings within the edit budget of the longer one (0 beyond it). */
export function editSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  const budget = editBudget(longest);
  if (budget === 0) return 0;
  const d = boundedDistance(a, b, budget);
  if (d > budget) return 0;
  // In a short name one letter is often another name (Kamal / Kamau, Maria / Mario): squared, as logic-v2 does for all.
  return longest <= SHORT ? (1 - d / longest) ** 2 : 1 - (EDIT_COST * d) / longest;
}

/** Names of this many letters or fewer: an edit weighs more, a phonetic match needs the same consonants. */
const SHORT = 5;
/** What one edit costs a longer name, in proportion to its length (a typo in a long name leaves it recognisable). */
const EDIT_COST = 0.8;

const DOUBLED_SCORE = 0.95;

function undouble(text: string): string {
  return text.replace(/(.)\1+/g, '$1');
}

const PHONETIC_SCORE = 0.82;
const VOWEL_SUFFIX_SCORE = 0.65;
const SKELETON_SCORE = 0.85;
const INITIAL_SCORE = 0.8;
const ARTICLE_SCORE = 0.95;

/** Best evidence that two tokens are the same name part, or undefined when there is none. */
export function compareTokens(q: NameToken, l: NameToken): TokenMatch | undefined {
  const a = q.text;
  const b = l.text;
  if (a === b) return { kind: 'exact', score: 1 };
  if (a.length === 1 || b.length === 1) {
    return a[0] === b[0] ? { kind: 'initial', score: INITIAL_SCORE } : undefined;
  }
  // The Arabic article glued to the name (alzawahiri / zawahiri, elsayed / sayed).
  if ((a.length > 4 && (a === `al${b}` || a === `el${b}`)) || (b.length > 4 && (b === `al${a}` || b === `el${a}`))) {
    return { kind: 'article', score: ARTICLE_SCORE };
  }
  // abd compounds against the bare name when the query splits them (Jabbar ... Abdul / Abduljabbar).
  if ((b.startsWith('abd') && a === b.slice(3) && a.length >= 3) || (a.startsWith('abd') && b === a.slice(3) && b.length >= 3)) {
    return { kind: 'article', score: ARTICLE_SCORE - 0.05 };
  }
  // One name extended by a suffix of two letters or more is another name (Petrov / Petrovic, Ali / Alimov).
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (long.length - short.length >= 2 && long.startsWith(short)) return undefined;
  // One vowel more at the end is usually another form of the name (Karimov / Karimova, Farooq / Farooqi, Sultan / Sultana).
  if (long.length === short.length + 1 && short.length >= 4 && long.startsWith(short) && /[aeiouy]$/.test(long)) return { kind: 'edit', score: VOWEL_SUFFIX_SCORE };
  let best: TokenMatch | undefined;
  // Doubled letters are the commonest variant and typo (Mohamed / Mohammed, Hasan / Hassan, Yaassin): nearly free.
  const da = undouble(a);
  const db = undouble(b);
  const doubled = da === db ? DOUBLED_SCORE : DOUBLED_SCORE * editSimilarity(da, db);
  const edit = Math.max(editSimilarity(a, b), doubled, q.raw !== a || l.raw !== b ? editSimilarity(q.raw, l.raw) : 0);
  if (edit > 0) best = { kind: 'edit', score: edit };
  // Short names differing in sound are other names (Zhong / Zhang, Long / Lung): phonetic matches from six letters.
  if ((!best || best.score < PHONETIC_SCORE) && Math.max(a.length, b.length) > SHORT && a[0] === b[0] && phoneticAgree(q, l) && editSimilarity3(a, b) && q.skeleton === l.skeleton) {
    best = { kind: 'phonetic', score: PHONETIC_SCORE };
  }
  if ((!best || best.score < SKELETON_SCORE) && (q.abjad || l.abjad) && q.skeleton.length >= 2 && q.skeleton === l.skeleton) {
    best = { kind: 'skeleton', score: SKELETON_SCORE };
  }
  return best;
}

function phoneticAgree(q: NameToken, l: NameToken): boolean {
  for (const p of q.phonetic) if (p.length >= 2 && l.phonetic.includes(p)) return true;
  return false;
}

/**
 * A phonetic match also needs the same consonants (checked by the caller), lengths within one
 * letter and the spellings within the edit budget, one edit more from seven letters (Mohamed /
 * Muhammad; not Gang / Guoying, Asadi / Azad or Petukhov / Pitikov).
 */
function editSimilarity3(a: string, b: string): boolean {
  const longest = Math.max(a.length, b.length);
  if (Math.abs(a.length - b.length) > 1) return false;
  const allowed = editBudget(longest) + (longest >= 7 ? 1 : 0);
  return boundedDistance(a, b, allowed) <= allowed;
}
