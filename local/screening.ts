import { resolve } from 'node:path';
import { DEFAULT_SNAPSHOT_FOLDER, FileScreener, readSnapshotFolder } from '../src/adapters/screening/file-screener';
import { diffSnapshots } from '../src/domain/screening/screen';
import type { ListId, ListSnapshot, ScreenedPerson, ScreeningPolicy, ScreeningResult } from '../src/domain/screening/types';
import type { ListChanges, SanctionsScreener } from '../src/ports/screening';
import type { ChangesScreener } from '../src/ports/screening-store';

/**
 * The snapshots of a folder as the local runtime screens with them. The repository's own lists
 * (config/screening) are fictional and dated as read, so that `npm start` screens with them whatever
 * day it is; any other folder (`SCREENING_LISTS=../shared/sanctions`) keeps its publishers' dates,
 * and a stale one says not evaluated there as it would deployed.
 */
export function readLocalLists(folder: string, today: string): ListSnapshot[] {
  const own = resolve(folder) === resolve(DEFAULT_SNAPSHOT_FOLDER);
  return readSnapshotFolder(folder).map((s) => (own ? { ...s, asOf: today } : s));
}

/** The re-screen's index: the changed entries alone, one FileScreener over them. */
export const changesScreener: ChangesScreener = (changes) => new FileScreener(changes.map((c) => ({ list: c.list, asOf: c.asOf, entries: c.changed })));

/**
 * The local screener: the lists read at start, replaced in place when a newer folder is read
 * (`Runtime.loadScreeningLists`), as the deployed pipeline moves to a newly stored snapshot.
 */
export class LocalLists implements SanctionsScreener {
  private snapshots = new Map<ListId, ListSnapshot>();
  private screener: FileScreener;

  constructor(snapshots: readonly ListSnapshot[]) {
    for (const s of snapshots) this.snapshots.set(s.list, s);
    this.screener = new FileScreener(snapshots);
  }

  screen(person: ScreenedPerson, policy: ScreeningPolicy, now: Date): Promise<ScreeningResult> {
    return this.screener.screen(person, policy, now);
  }

  loaded(): Promise<{ list: ListId; asOf: string; entries: number }[]> {
    return this.screener.loaded();
  }

  /** Takes newer snapshots in (the lists not given are kept) and answers what each changed. */
  replace(next: readonly ListSnapshot[]): ListChanges[] {
    const changes = next.map((s) => diffSnapshots(this.snapshots.get(s.list), s));
    for (const s of next) this.snapshots.set(s.list, s);
    this.screener = new FileScreener([...this.snapshots.values()]);
    return changes;
  }
}
