import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type LoadedList, loadList, screenPerson } from '../../domain/screening/screen';
import type { ListId, ListSnapshot, ScreenedPerson, ScreeningPolicy, ScreeningResult } from '../../domain/screening/types';
import type { SanctionsScreener } from '../../ports/screening';
import { LOADERS } from './loaders';

/** Where `npm start`, the batch command and tests find snapshots when nothing else is said: the repository's own fictional test lists. */
export const DEFAULT_SNAPSHOT_FOLDER = join(__dirname, '..', '..', '..', 'config', 'screening');

export interface FolderOptions {
  /** Lists to load (default: every list whose required files are in the folder). */
  lists?: ListId[];
  /** The date of a snapshot whose format carries none (OFAC's CSV): default the file's modification date. */
  asOf?: Partial<Record<ListId, string>>;
}

/**
 * Reads the snapshots in a folder, one per list whose required files are there (a list whose files
 * are missing is simply not loaded: screening against it is then `not_evaluated`). A file that is
 * there but malformed throws (SnapshotFormatError): a start-up with a broken list fails loudly.
 */
export function readSnapshotFolder(folder: string, options: FolderOptions = {}): ListSnapshot[] {
  const snapshots: ListSnapshot[] = [];
  for (const loader of Object.values(LOADERS)) {
    if (options.lists && !options.lists.includes(loader.list)) continue;
    const texts: Record<string, string> = {};
    let takenAt: string | undefined;
    let complete = true;
    for (const file of loader.files) {
      const path = file.names.map((n) => join(folder, n)).find((p) => existsSync(p));
      if (!path) {
        if (file.required) complete = false;
        continue;
      }
      texts[file.key] = readFileSync(path, 'utf8');
      if (file.required) takenAt ??= statSync(path).mtime.toISOString().slice(0, 10);
    }
    if (!complete) continue;
    snapshots.push(loader.parse(texts, options.asOf?.[loader.list] ?? takenAt ?? new Date().toISOString().slice(0, 10)));
  }
  return snapshots;
}

/**
 * SanctionsScreener over snapshots held in memory: loaded once (from a folder, or from snapshots the
 * caller parsed, e.g. from S3), each list's index built at load; screening is then pure lookups.
 */
export class FileScreener implements SanctionsScreener {
  private readonly lists = new Map<ListId, LoadedList>();
  private readonly snapshots = new Map<ListId, ListSnapshot>();

  constructor(snapshots: readonly ListSnapshot[]) {
    for (const s of snapshots) {
      this.lists.set(s.list, loadList(s));
      this.snapshots.set(s.list, s);
    }
  }

  /** Loads the snapshots of a folder (see readSnapshotFolder). */
  static fromFolder(folder: string, options: FolderOptions = {}): FileScreener {
    return new FileScreener(readSnapshotFolder(folder, options));
  }

  async screen(person: ScreenedPerson, policy: ScreeningPolicy, now: Date): Promise<ScreeningResult> {
    return screenPerson(this.lists, person, policy, now);
  }

  /** The same as screen, synchronously (the batch command and the bench screen thousands in a loop). */
  screenSync(person: ScreenedPerson, policy: ScreeningPolicy, now: Date): ScreeningResult {
    return screenPerson(this.lists, person, policy, now);
  }

  async loaded(): Promise<{ list: ListId; asOf: string; entries: number }[]> {
    return this.loadedSync();
  }

  /** The same as loaded, synchronously. */
  loadedSync(): { list: ListId; asOf: string; entries: number }[] {
    return [...this.lists.values()].map((l) => ({ list: l.list, asOf: l.asOf, entries: l.entries }));
  }

  /** The snapshot a list was loaded from (the re-screen job diffs it with the next one). */
  snapshot(list: ListId): ListSnapshot | undefined {
    return this.snapshots.get(list);
  }
}
