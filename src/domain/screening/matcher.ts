import { compareBirthDates, parsePartialDate } from './dates';
import { type NameToken, tokenise } from './normalise';
import { compareTokens, editSimilarity, type TokenMatch } from './similarity';
import type { ListedName, ListEntry, ScreenedPerson, ScreeningHit } from './types';

/**
 * The matcher: an index over the persons of one or more list snapshots, built once at load, and the
 * scoring of a screened person against the few entries the index proposes. Scoring follows the
 * structure of OpenSanctions' logic-v2 (MIT): the best name alignment is the main score, an
 * identity-document number hit is a main score of its own, and qualifiers (date of birth,
 * nationality, gender) move it up or down; every step writes a reason.
 */

/** Weights of the alignment: a family name counts more, an unmatched part of the query costs more than an unmatched listed part (lists carry long names). */
export const WEIGHTS = {
  family: 1.3,
  initial: 0.4,
  extraQuery: 0.8,
  extraQueryInitial: 0.15,
  extraListed: 0.1,
  extraListedMinor: 0.05,
  /** A listed family-name part the query does not give (Vieira of Vieira Dias) costs more than a middle name. */
  extraListedFamily: 0.3,
  /** The listed first given name left out while a later given name matched (John of Mark John Taylor). */
  extraListedFirst: 0.3,
  /** A listed name whose parts are joined or split differently (Xiaoming / Xiao Ming) compared as one string. */
  joined: 0.95,
} as const;

/** Qualifier effects, added to the name score. */
export const QUALIFIERS = {
  dobExact: 0.07,
  dobMonth: 0.04,
  dobYear: 0.03,
  dobDayMismatch: -0.1,
  dobDisjoint: -0.2,
  nationalityMatch: 0.02,
  nationalityMismatch: -0.1,
  genderMismatch: -0.2,
  /** A document number on the list equal to the person's: at least this, plus `documentBoost` when the name also agrees. */
  documentFloor: 0.85,
  documentBoost: 0.1,
} as const;

/** A weak alias (OFAC "weak a.k.a.", UN "low quality") alone tops out here: never a strong hit. */
export const WEAK_ALIAS_CAP = 0.7;
/** A name matched on a single part (one word on either side) tops out here unless the single word is long and both sides have only it. */
export const SINGLE_PART_CAP = 0.8;
const SINGLE_PART_MIN_LENGTH = 7;
/** Hits below this are not reported. */
export const REPORT_FLOOR = 0.5;
const MAX_HITS = 50;

interface IndexedName {
  entry: number;
  name: ListedName;
  tokens: NameToken[];
  joined: string;
}

interface PreparedQuery {
  tokens: NameToken[];
  joined: string;
}

/** Tokens that are usually minor in a listed name when the query leaves them out: patronymics, single letters. */
const MINOR = /(?:ovich|evich|ovych|ivich|ovna|evna|ivna|ogly|oglu|kyzy|uly)$|^(?:abd|abdu|abdul|abdel|abdal|bd)$/;

function documentKey(number: string): string {
  return number.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/**
 * A listed name's tokens, family-name parts marked. The name is tokenised whole, as a query is (a
 * title that is the whole family part, "HAJJI, Muhammad", is dropped on both sides alike).
 */
function listedTokens(name: ListedName): NameToken[] {
  const given = name.parts?.given?.join(' ') ?? '';
  const family = name.parts?.family?.join(' ') ?? '';
  if (!family && !given) return tokenise(name.full);
  const familyTexts = new Set(tokenise(family).map((t) => t.text));
  return tokenise(`${given} ${family}`).map((t) => (familyTexts.has(t.text) ? { ...t, family: true } : t));
}

function joinTokens(tokens: readonly NameToken[]): string {
  return tokens.map((t) => t.text).join('');
}

/**
 * An index over the persons of list snapshots: name tokens, their phonetic codes and consonant
 * skeletons, and identity-document numbers map to the names that carry them, so that a query
 * scores only the entries sharing one of its keys (never a scan of all entries).
 */
export class ScreeningIndex {
  private readonly entries: ListEntry[] = [];
  private readonly names: IndexedName[] = [];
  /** Key → distinct listed tokens (ids into tokenNames): keys are made once per distinct token, not per occurrence. */
  private readonly byKey = new Map<string, number[]>();
  /** Distinct listed token (its text, raw spelling and script) → id. */
  private readonly tokenIds = new Map<string, number>();
  /** Token id → the names that carry it. */
  private readonly tokenNames: number[][] = [];
  private readonly byDocument = new Map<string, number[]>();

  /** Indexes the persons among `entries`; entities, vessels and aircraft are left out (a person is never matched against them). */
  static build(entries: readonly ListEntry[]): ScreeningIndex {
    const index = new ScreeningIndex();
    for (const entry of entries) if (entry.kind === 'person') index.add(entry);
    return index;
  }

  /** Persons indexed. */
  get size(): number {
    return this.entries.length;
  }

  /**
   * The names worth scoring for a query: those sharing a key with at least two of the query's parts
   * (one when the query has a single keyed part). A name found through one part only of a longer
   * query cannot reach a strong score (SINGLE_PART_CAP), so it is not scored.
   */
  private candidates(q: PreparedQuery): number[] {
    const masks = new Map<number, number>();
    let keyed = 0;
    q.tokens.forEach((t, i) => {
      const keys = tokenKeys(t, false);
      if (keys.length === 0) return;
      keyed++;
      const bit = 1 << Math.min(i, 30);
      for (const key of keys) {
        for (const tid of this.byKey.get(key) ?? []) {
          for (const n of this.tokenNames[tid] as number[]) masks.set(n, (masks.get(n) ?? 0) | bit);
        }
      }
    });
    // Two adjacent query parts that a list writes as one (Jean Pierre / Jeanpierre).
    for (let i = 0; i + 1 < q.tokens.length; i++) {
      const bits = (1 << Math.min(i, 30)) | (1 << Math.min(i + 1, 30));
      for (const tid of this.byKey.get(`t${q.tokens[i]?.text}${q.tokens[i + 1]?.text}`) ?? []) {
        for (const n of this.tokenNames[tid] as number[]) masks.set(n, (masks.get(n) ?? 0) | bits);
      }
    }
    const need = Math.min(2, keyed);
    const out: number[] = [];
    for (const [n, mask] of masks) if (popcount(mask) >= need) out.push(n);
    return out;
  }

  private add(entry: ListEntry): void {
    const e = this.entries.push(entry) - 1;
    const seen = new Set<string>();
    for (const name of entry.names) {
      const tokens = listedTokens(name);
      if (tokens.length === 0) continue;
      const signature = `${name.quality}:${tokens.map((t) => t.text).join(' ')}`;
      if (seen.has(signature)) continue;
      seen.add(signature);
      const n = this.names.push({ entry: e, name, tokens, joined: joinTokens(tokens) }) - 1;
      for (const t of tokens) this.addToken(`${t.abjad ? 1 : 0}${t.raw} ${t.text}`, () => tokenKeys(t, true), n);
      // Two adjacent parts written as one by the query (Won Uk / Wonuk).
      for (let i = 0; i + 1 < tokens.length; i++) {
        const pair = `${tokens[i]?.text}${tokens[i + 1]?.text}`;
        this.addToken(`+${pair}`, () => [`t${pair}`], n);
      }
    }
    for (const doc of entry.documents) {
      const key = documentKey(doc.number);
      if (key.length >= 5) push(this.byDocument, key, e);
    }
  }

  /** Records that name `n` carries a token; the token's keys are computed the first time it is seen. */
  private addToken(id: string, keys: () => string[], n: number): void {
    let tid = this.tokenIds.get(id);
    if (tid === undefined) {
      tid = this.tokenNames.push([]) - 1;
      this.tokenIds.set(id, tid);
      for (const key of new Set(keys())) push(this.byKey, key, tid);
    }
    const names = this.tokenNames[tid] as number[];
    if (names[names.length - 1] !== n) names.push(n);
  }

  /**
   * Screens a person: every listed person sharing a name key or a document number is scored, and
   * the hits at or above `floor` come back best first, at most `limit`. `best` is the best score
   * of any candidate (0 when there is none).
   */
  screen(person: ScreenedPerson, options: { floor?: number; limit?: number } = {}): { best: number; hits: ScreeningHit[] } {
    const floor = options.floor ?? REPORT_FLOOR;
    const limit = options.limit ?? MAX_HITS;
    const queries = prepareQueries(person);
    const documentEntries = new Set<number>();
    for (const number of person.documentNumbers ?? []) {
      for (const e of this.byDocument.get(documentKey(number)) ?? []) documentEntries.add(e);
    }
    const bestName = new Map<number, NameScore>();
    for (const q of queries) {
      const cache = new Map<string, TokenMatch | undefined>();
      for (const n of this.candidates(q)) {
        const indexed = this.names[n] as IndexedName;
        const s = scoreName(q, indexed, cache);
        const prior = bestName.get(indexed.entry);
        if (!prior || s.score > prior.score) bestName.set(indexed.entry, s);
      }
    }
    for (const e of documentEntries) if (!bestName.has(e)) bestName.set(e, { score: 0, reason: 'no name of the entry matches', weak: false, listed: this.entries[e]?.names[0]?.full ?? '' });
    const dob = parsePartialDate(person.dateOfBirth);
    let best = 0;
    const hits: ScreeningHit[] = [];
    for (const [e, name] of bestName) {
      const entry = this.entries[e] as ListEntry;
      const hit = qualify(entry, name, person, dob, documentEntries.has(e));
      if (hit.score > best) best = hit.score;
      if (hit.score >= floor) hits.push(hit);
    }
    hits.sort((a, b) => b.score - a.score || a.entry.localeCompare(b.entry));
    return { best, hits: hits.slice(0, limit) };
  }
}

/**
 * The index keys of a token: the token itself, its phonetic codes (2 letters or more), its single
 * deletions (4 to 12 letters; a 3-letter query looks itself up among them), its first and last four
 * letters (8 letters or more: a typo leaves one of them intact) and, for the list side or an abjad
 * query, its consonant skeleton.
 */
function tokenKeys(t: NameToken, listed: boolean): string[] {
  const text = t.text;
  if (text.length < 2) return [];
  const keys = [`t${text}`];
  for (const p of t.phonetic) if (p.length >= 2) keys.push(`m${p}`);
  if (text.length >= 8) keys.push(`p${text.slice(0, 4)}`, `x${text.slice(-4)}`);
  if (text.length === 3 && !listed) keys.push(`d${text}`);
  if (text.length >= 4 && text.length <= 12) {
    // Single deletions (as SymSpell does): one substitution, insertion, deletion or swap leaves a deletion in common.
    keys.push(`d${text}`);
    for (let i = 0; i < text.length; i++) if (text[i] !== text[i - 1]) keys.push(`d${text.slice(0, i)}${text.slice(i + 1)}`);
  }
  if (t.raw !== text) {
    // An abd compound: also under its raw spelling and the bare name (Habib of Abdulhabib).
    keys.push(`t${t.raw}`);
    if (t.raw.length >= 9) keys.push(`p${t.raw.slice(0, 4)}`, `x${t.raw.slice(-4)}`);
    if (text.startsWith('abd') && text.length >= 6) keys.push(`t${text.slice(3)}`);
  }
  if ((listed || t.abjad) && t.skeleton.length >= 2) keys.push(`s${t.skeleton}`);
  return keys;
}

function popcount(x: number): number {
  let c = 0;
  for (let v = x; v !== 0; v &= v - 1) c++;
  return c;
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The names a person is screened under: the parts as given (last name as family name) and the full name, when they differ. */
function prepareQueries(person: ScreenedPerson): PreparedQuery[] {
  const out: PreparedQuery[] = [];
  const given = [person.firstName, person.middleName].filter(Boolean).join(' ');
  if (given || person.lastName) {
    const tokens = [...tokenise(given), ...tokenise(person.lastName ?? '', true)];
    if (tokens.length > 0) out.push({ tokens, joined: joinTokens(tokens) });
  }
  if (person.fullName) {
    const tokens = tokenise(person.fullName);
    const joined = joinTokens(tokens);
    if (tokens.length > 0 && !out.some((q) => q.joined === joined)) out.push({ tokens, joined });
  }
  return out;
}

interface NameScore {
  score: number;
  reason: string;
  weak: boolean;
  listed: string;
}

const KIND_LABEL: Record<ListedName['kind'], string> = { primary: 'primary name', aka: 'a.k.a.', fka: 'f.k.a.', original_script: 'name in original script' };

/** Aligns the query's parts with a listed name's parts (best pairs first) and weighs matched and unmatched parts. */
function scoreName(q: PreparedQuery, l: IndexedName, cache: Map<string, TokenMatch | undefined>): NameScore {
  const pairs: { qi: number; li: number; qi2?: number; li2?: number; m: TokenMatch }[] = [];
  // Two adjacent parts on one side written as one on the other (Abtul Raqib / Abdulraqib, Won Uk / Wonuk).
  for (let qi = 0; qi + 1 < q.tokens.length; qi++) {
    const joined = `${q.tokens[qi]?.raw}${q.tokens[qi + 1]?.raw}`;
    l.tokens.forEach((lt, li) => {
      const score = Math.max(editSimilarity(joined, lt.raw), editSimilarity(joined, lt.text));
      if (score > 0) pairs.push({ qi, qi2: qi + 1, li, m: { kind: 'joined', score } });
    });
  }
  for (let li = 0; li + 1 < l.tokens.length; li++) {
    const joined = `${l.tokens[li]?.raw}${l.tokens[li + 1]?.raw}`;
    q.tokens.forEach((qt, qi) => {
      const score = Math.max(editSimilarity(qt.raw, joined), editSimilarity(qt.text, joined));
      if (score > 0) pairs.push({ qi, li, li2: li + 1, m: { kind: 'joined', score } });
    });
  }
  for (let qi = 0; qi < q.tokens.length; qi++) {
    const qt = q.tokens[qi] as NameToken;
    for (let li = 0; li < l.tokens.length; li++) {
      const lt = l.tokens[li] as NameToken;
      const key = `${qi} ${lt.abjad ? 1 : 0}${lt.raw} ${lt.text}`;
      let m = cache.get(key);
      if (m === undefined && !cache.has(key)) {
        m = compareTokens(qt, lt);
        cache.set(key, m);
      }
      if (m) pairs.push({ qi, li, m });
    }
  }
  pairs.sort((a, b) => b.m.score - a.m.score);
  const usedQ = new Set<number>();
  const usedL = new Set<number>();
  const parts: string[] = [];
  let num = 0;
  let den = 0;
  let strongPairs = 0;
  for (const p of pairs) {
    if (usedQ.has(p.qi) || usedL.has(p.li) || (p.qi2 !== undefined && usedQ.has(p.qi2)) || (p.li2 !== undefined && usedL.has(p.li2))) continue;
    usedQ.add(p.qi);
    usedL.add(p.li);
    if (p.qi2 !== undefined) usedQ.add(p.qi2);
    if (p.li2 !== undefined) usedL.add(p.li2);
    const qt = q.tokens[p.qi] as NameToken;
    const lt = l.tokens[p.li] as NameToken;
    let w = p.m.kind === 'initial' ? WEIGHTS.initial : 1;
    if ((qt.family || lt.family) && p.m.kind !== 'initial') w *= WEIGHTS.family;
    if (p.m.kind !== 'initial') strongPairs++;
    num += w * p.m.score;
    den += w;
    parts.push(p.m.kind === 'exact' ? `${lt.text}${lt.family ? ' (family)' : ''} exact` : `${qt.text}~${lt.text} ${p.m.kind} ${p.m.score.toFixed(2)}`);
  }
  const missingQ: string[] = [];
  q.tokens.forEach((t, i) => {
    if (usedQ.has(i)) return;
    den += t.text.length === 1 || MINOR.test(t.text) ? WEIGHTS.extraQueryInitial : WEIGHTS.extraQuery;
    missingQ.push(t.text);
  });
  const missingL: string[] = [];
  const firstGiven = l.name.parts?.given?.length ? l.tokens.findIndex((t) => !t.family) : -1;
  l.tokens.forEach((t, i) => {
    if (usedL.has(i)) return;
    if (t.text.length === 1 || MINOR.test(t.text)) den += WEIGHTS.extraListedMinor;
    else if (t.family) den += WEIGHTS.extraListedFamily;
    else if (i === firstGiven && [...usedL].some((j) => j > i && !l.tokens[j]?.family)) den += WEIGHTS.extraListedFirst;
    else den += WEIGHTS.extraListed;
    missingL.push(t.text);
  });
  let score = den > 0 ? num / den : 0;
  let how = parts.join(', ');
  if (missingQ.length) how += `; not on the list: ${missingQ.join(' ')}`;
  if (missingL.length) how += `; listed parts not given: ${missingL.join(' ')}`;
  if (l.tokens.length !== q.tokens.length) {
    if (q.joined.length >= 8 && l.joined.length >= 8) {
      const joined = editSimilarity(q.joined, l.joined) * WEIGHTS.joined;
      if (joined > score) {
        score = joined;
        strongPairs = Math.max(strongPairs, 2);
        how = `parts joined differently, ${q.joined}~${l.joined} ${joined.toFixed(2)}`;
      }
    }
  }
  const single = strongPairs < 2 && !(q.tokens.length === 1 && l.tokens.length === 1 && (q.tokens[0]?.text.length ?? 0) >= SINGLE_PART_MIN_LENGTH && strongPairs === 1);
  if (single && score > SINGLE_PART_CAP) {
    score = SINGLE_PART_CAP;
    how += `; one part only, capped at ${SINGLE_PART_CAP}`;
  }
  const weak = l.name.quality === 'weak';
  if (weak && score > WEAK_ALIAS_CAP) {
    score = WEAK_ALIAS_CAP;
    how += `; weak alias, capped at ${WEAK_ALIAS_CAP}`;
  }
  const label = weak ? `weak ${KIND_LABEL[l.name.kind]}` : KIND_LABEL[l.name.kind];
  return { score, weak, listed: l.name.full, reason: `name: "${l.name.full}" (${label}): ${how || 'no part matches'} → ${score.toFixed(2)}` };
}

const fmt = (x: number) => (x >= 0 ? `+${x.toFixed(2)}` : x.toFixed(2));

/** Applies the qualifiers to an entry's best name score and writes the hit with its reasons. */
function qualify(entry: ListEntry, name: NameScore, person: ScreenedPerson, dob: ReturnType<typeof parsePartialDate>, documentHit: boolean): ScreeningHit {
  const reasons = [name.reason];
  let score = name.score;
  if (documentHit) {
    const boosted = name.score >= 0.5 ? Math.max(QUALIFIERS.documentFloor, name.score) + QUALIFIERS.documentBoost : QUALIFIERS.documentFloor;
    reasons.push(`document number on the list (${entry.documents.map((d) => d.type).filter(Boolean)[0] ?? 'document'}): ${fmt(boosted - score)}`);
    score = boosted;
  }
  const date = compareBirthDates(dob, entry.datesOfBirth);
  const dateEffect: Record<string, number> = {
    exact: QUALIFIERS.dobExact,
    month: QUALIFIERS.dobMonth,
    year: QUALIFIERS.dobYear,
    day_mismatch: QUALIFIERS.dobDayMismatch,
    disjoint: QUALIFIERS.dobDisjoint,
  };
  const de = dateEffect[date.relation];
  if (de !== undefined) {
    const words: Record<string, string> = {
      exact: 'matches listed',
      month: 'matches (year and month) listed',
      year: 'year agrees with listed',
      day_mismatch: 'same year, different day or month than listed',
      disjoint: 'year differs from every listed date, e.g.',
    };
    reasons.push(`date of birth ${person.dateOfBirth} ${words[date.relation]} ${date.listed ?? ''}: ${fmt(de)}`.replace(' :', ':'));
    score += de;
  }
  const nationality = person.nationality?.toUpperCase();
  if (nationality && entry.nationalities.length > 0) {
    if (entry.nationalities.includes(nationality)) {
      reasons.push(`nationality ${nationality} listed: ${fmt(QUALIFIERS.nationalityMatch)}`);
      score += QUALIFIERS.nationalityMatch;
    } else {
      reasons.push(`nationality ${nationality} not among listed ${entry.nationalities.join(', ')}: ${fmt(QUALIFIERS.nationalityMismatch)}`);
      score += QUALIFIERS.nationalityMismatch;
    }
  }
  if (person.gender && entry.gender && person.gender !== entry.gender) {
    reasons.push(`gender ${person.gender}, listed ${entry.gender}: ${fmt(QUALIFIERS.genderMismatch)}`);
    score += QUALIFIERS.genderMismatch;
  }
  if (name.weak && !documentHit && score > WEAK_ALIAS_CAP) {
    score = WEAK_ALIAS_CAP;
    reasons.push(`weak alias only: capped at ${WEAK_ALIAS_CAP}`);
  }
  score = Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
  return { list: entry.list, entry: entry.id, reference: entry.reference, name: name.listed, programmes: entry.programmes, score, reasons };
}
