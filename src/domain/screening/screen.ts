import { ScreeningIndex } from './matcher';
import type { ListChanges, ListEntry, ListId, ListSnapshot, ScreenedPerson, ScreeningPolicy, ScreeningResult } from './types';

/** A snapshot loaded for screening: its date and the index built over its persons at load. */
export interface LoadedList {
  list: ListId;
  asOf: string;
  entries: number;
  index: ScreeningIndex;
}

/** Builds the index of one snapshot (once, at load). */
export function loadList(snapshot: ListSnapshot): LoadedList {
  return { list: snapshot.list, asOf: snapshot.asOf, entries: snapshot.entries.length, index: ScreeningIndex.build(snapshot.entries) };
}

const DAY_MS = 86_400_000;

/**
 * Screens a person against the lists a policy names. Fails closed: a list the policy names that is
 * not loaded, or whose snapshot is older than `maxAgeDays`, makes the whole result `not_evaluated`
 * (a review), never an empty list of hits.
 */
export function screenPerson(lists: ReadonlyMap<ListId, LoadedList>, person: ScreenedPerson, policy: ScreeningPolicy, now: Date): ScreeningResult {
  const used: LoadedList[] = [];
  const dates = () => used.map((l) => ({ list: l.list, asOf: l.asOf }));
  for (const id of policy.lists) {
    const list = lists.get(id);
    if (!list) return { status: 'not_evaluated', reason: 'missing_list', lists: dates(), message: `list ${id} is not loaded` };
    used.push(list);
  }
  for (const list of used) {
    const asOf = Date.parse(list.asOf);
    const ageDays = (now.getTime() - asOf) / DAY_MS;
    if (!Number.isFinite(asOf) || ageDays > policy.maxAgeDays) {
      return { status: 'not_evaluated', reason: 'stale_list', lists: dates(), message: `list ${list.list} is as of ${list.asOf}, older than ${policy.maxAgeDays} days` };
    }
  }
  let best = 0;
  const hits = [];
  for (const list of used) {
    const r = list.index.screen(person);
    best = Math.max(best, r.best);
    hits.push(...r.hits);
  }
  hits.sort((a, b) => b.score - a.score);
  // Every hit at or above the threshold (up to 50), then weaker ones up to 10 in all, for context.
  const strong = hits.filter((h) => h.score >= policy.threshold).slice(0, 50);
  const weak = hits.filter((h) => h.score < policy.threshold).slice(0, Math.max(0, 10 - strong.length));
  return { status: 'screened', lists: dates(), best, hits: [...strong, ...weak] };
}

/**
 * The entries of a new snapshot that are new or changed since the old one (same publisher id,
 * different names, dates, nationalities, documents or kind): what a re-screen passes over once.
 * Build `ScreeningIndex.build(changes.changed)` once and screen each opted-in verification against
 * it; removed entries need no re-screen.
 */
export function diffSnapshots(old: ListSnapshot | undefined, next: ListSnapshot): ListChanges {
  const before = new Map<string, string>();
  for (const e of old?.entries ?? []) before.set(e.id, fingerprint(e));
  const changed = next.entries.filter((e) => before.get(e.id) !== fingerprint(e));
  return { list: next.list, asOf: next.asOf, changed };
}

function fingerprint(e: ListEntry): string {
  return JSON.stringify([e.kind, e.names, e.datesOfBirth, e.nationalities, e.gender ?? null, e.documents]);
}

/** Screens a person against only some entries (a re-screen over changed entries), through an index built once for them. */
export function screenAgainst(index: ScreeningIndex, person: ScreenedPerson, threshold: number) {
  return index.screen(person).hits.filter((h) => h.score >= threshold);
}
