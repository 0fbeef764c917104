import type { ListId, ListSnapshot, ScreenedPerson, ScreeningPolicy, ScreeningResult } from '../../domain/screening/types';
import type { SanctionsScreener } from '../../ports/screening';
import type { SnapshotStore, StoredSnapshot } from '../../ports/screening-snapshots';

/** How long a loaded snapshot is used before its pointer is read again: a refresh reaches a warm function within this. */
const RECHECK_MS = 15 * 60_000;

/**
 * The deployed screener: the newest stored snapshot of each list a policy names, read from the
 * snapshot store on first use, indexed once (`index`: the core's FileScreener), and read again when a
 * newer snapshot is stored (the pointer is checked every 15 minutes). A list never stored is simply
 * not loaded: the screener then says `missing_list` (not evaluated: review), never "no hit".
 */
export class SnapshotScreener implements SanctionsScreener {
  private snapshots = new Map<ListId, { stored: StoredSnapshot; snapshot: ListSnapshot }>();
  private screener: SanctionsScreener | undefined;
  private checkedAt = 0;
  private loading: Promise<SanctionsScreener> | undefined;

  constructor(
    private readonly store: SnapshotStore,
    private readonly index: (snapshots: readonly ListSnapshot[]) => SanctionsScreener,
    private readonly now: () => number = Date.now,
  ) {}

  private async current(lists: readonly ListId[]): Promise<SanctionsScreener> {
    const wanted = lists.filter((l) => !this.snapshots.has(l));
    if (this.screener && wanted.length === 0 && this.now() - this.checkedAt < RECHECK_MS) return this.screener;
    this.loading ??= this.reload([...new Set([...this.snapshots.keys(), ...lists])]).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async reload(lists: ListId[]): Promise<SanctionsScreener> {
    let changed = !this.screener;
    for (const list of lists) {
      const stored = await this.store.newest(list);
      const have = this.snapshots.get(list);
      if (!stored || (have && have.stored.key === stored.key)) continue;
      this.snapshots.set(list, { stored, snapshot: await this.store.read(stored) });
      changed = true;
    }
    if (changed || !this.screener) this.screener = this.index([...this.snapshots.values()].map((l) => l.snapshot));
    this.checkedAt = this.now();
    return this.screener;
  }

  async screen(person: ScreenedPerson, policy: ScreeningPolicy, now: Date): Promise<ScreeningResult> {
    return (await this.current(policy.lists)).screen(person, policy, now);
  }

  async loaded(): Promise<{ list: ListId; asOf: string; entries: number }[]> {
    return [...this.snapshots.values()].map((l) => ({ list: l.stored.list, asOf: l.stored.asOf, entries: l.stored.entries }));
  }
}
