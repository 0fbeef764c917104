import type { ListId, ListSnapshot } from '../domain/screening/types';
import { logger } from '../logger';
import { METRIC } from '../ports/metrics';
import type { ListChanges } from '../ports/screening';
import type { ListSource, SnapshotDiff, SnapshotParser, SnapshotStore, SourceFetcher, StoredSnapshot } from '../ports/screening-snapshots';
import type { ChangesScreener } from '../ports/screening-store';
import type { Deps } from './deps';
import { type RescreenReport, rescreenApproved } from './screening-rescreen';

/** A new snapshot whose entry count moved more than this share from the last one is refused (a truncated or wrong file). */
export const DEFAULT_CHANGE_BAND = 0.2;

export interface RefreshOptions {
  sources: readonly ListSource[];
  fetcher: SourceFetcher;
  snapshots: SnapshotStore;
  parse: SnapshotParser;
  diff: SnapshotDiff;
  screenerOf: ChangesScreener;
  /** Largest relative change of the entry count accepted (default 0.2: ±20 %). */
  band?: number;
}

/** What happened to one list. */
export type ListRefresh =
  | { list: ListId; status: 'stored'; asOf: string; entries: number; changed: number }
  | { list: ListId; status: 'refused'; reason: string; kept?: { asOf: string; entries: number } };

export interface RefreshReport {
  lists: ListRefresh[];
  /** Age in days of the oldest newest-snapshot (Infinity when a list has none). */
  oldestAgeDays: number;
  rescreen: RescreenReport;
}

const DAY_MS = 86_400_000;

/** Why a parsed snapshot may not replace the last one, or undefined when it may. */
export function refusal(next: ListSnapshot, previous: StoredSnapshot | undefined, band: number): string | undefined {
  if (next.entries.length === 0) return 'the snapshot holds no entry';
  if (previous && previous.entries > 0) {
    const change = Math.abs(next.entries.length - previous.entries) / previous.entries;
    if (change > band) return `the entry count moved ${(change * 100).toFixed(1)} % (${previous.entries} → ${next.entries.length}), more than ${(band * 100).toFixed(0)} %`;
  }
  if (previous && next.asOf < previous.asOf) return `the snapshot is dated ${next.asOf}, before the stored one (${previous.asOf})`;
  return undefined;
}

/**
 * The scheduled list refresh (functions/jobs/refresh-screening-lists.ts): downloads each configured
 * source, parses it, validates it (it parses; it holds entries; its entry count is within `band` of
 * the last snapshot; it is not older than it), stores it as a new version and makes it the newest,
 * then re-screens the approved verifications of the flows that opt in against what changed. A list
 * that fails any step keeps its last snapshot (screening goes on with it until it is older than the
 * flows' max_age_days, then says not evaluated), is logged and counted; the others go on. Records the
 * age of the oldest newest-snapshot, which the stale-list alarm watches.
 */
export async function refreshLists(
  deps: Pick<Deps, 'flows' | 'verifications' | 'screenings' | 'clock' | 'ids' | 'events' | 'outbox' | 'metrics'>,
  options: RefreshOptions,
): Promise<RefreshReport> {
  const band = options.band ?? DEFAULT_CHANGE_BAND;
  const now = deps.clock.now();
  const lists: ListRefresh[] = [];
  const changes: ListChanges[] = [];
  const newest: (StoredSnapshot | undefined)[] = [];
  for (const source of options.sources) {
    const previous = await options.snapshots.newest(source.list);
    const kept = previous ? { asOf: previous.asOf, entries: previous.entries } : undefined;
    try {
      const files: Record<string, string> = {};
      for (const [key, url] of Object.entries(source.files)) files[key] = await options.fetcher.fetch(url);
      const next = options.parse(source.list, files, now.slice(0, 10));
      if (next.list !== source.list) throw new Error(`the files parse as list ${next.list}, not ${source.list}`);
      const why = refusal(next, previous, band);
      if (why) {
        lists.push({ list: source.list, status: 'refused', reason: why, ...(kept && { kept }) });
        newest.push(previous);
        logger.warn('screening list refused', { list: source.list, reason: why });
        continue;
      }
      const stored = await options.snapshots.put(next, files, now);
      const diff = options.diff(previous ? await options.snapshots.read(previous) : undefined, next);
      changes.push(diff);
      newest.push(stored);
      lists.push({ list: source.list, status: 'stored', asOf: next.asOf, entries: next.entries.length, changed: diff.changed.length });
    } catch (error) {
      const reason = `${(error as Error)?.name ?? 'Error'}: ${String((error as Error)?.message ?? error).slice(0, 200)}`;
      lists.push({ list: source.list, status: 'refused', reason, ...(kept && { kept }) });
      newest.push(previous);
      logger.warn('screening list not refreshed', { list: source.list, errorName: (error as Error)?.name });
    }
  }
  const ages = newest.map((s) => (s ? (Date.parse(now) - Date.parse(s.asOf)) / DAY_MS : Number.POSITIVE_INFINITY));
  const oldestAgeDays = Math.max(0, ...ages);
  // A list with no snapshot at all records a large figure (CloudWatch takes no Infinity): the alarm fires.
  deps.metrics.record(METRIC.screeningSnapshotAge, Number.isFinite(oldestAgeDays) ? Number(oldestAgeDays.toFixed(2)) : 9999, 'Count');
  const rescreen = await rescreenApproved(deps, changes, options.screenerOf);
  return { lists, oldestAgeDays, rescreen };
}
