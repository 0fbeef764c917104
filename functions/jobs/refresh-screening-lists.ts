import { type RefreshReport, refreshLists } from '../../src/app/screening-refresh';
import { parseSources, sourcesFor } from '../../src/app/screening-sources';
import { loadConfig } from '../../src/config';
import { getDeps } from '../../src/container';
import { diffSnapshots } from '../../src/domain/screening/screen';
import { ENTRY_PORTS } from '../../src/entries';
import { withLambdaContext } from '../../src/logger';

/**
 * Scheduled (every 6 hours): fetches the configured sanctions lists (SCREENING_SOURCES, from
 * config/screening-sources.json), stores each valid snapshot in the screening bucket, records the
 * oldest snapshot's age (the stale-list alarm) and re-screens the approved verifications that opt in.
 */
export const handler = withLambdaContext(async (): Promise<RefreshReport> => {
  const deps = await getDeps(ENTRY_PORTS['jobs/refresh-screening-lists']);
  const sources = parseSources(JSON.parse(loadConfig(process.env).SCREENING_SOURCES ?? '{"lists":{}}'));
  const { screeningSnapshots: snapshots, sourceFetcher: fetcher, snapshotParser: parse, changesScreener: screenerOf } = deps;
  if (!snapshots || !fetcher || !parse || !screenerOf) throw new Error('SCREENING_BUCKET is not set: the refresh has nowhere to store snapshots');
  return refreshLists(deps, { sources: sourcesFor(sources, Object.keys(sources.lists)), fetcher, snapshots, parse, diff: diffSnapshots, screenerOf, band: sources.change_band });
});
