import type { Flow } from '../domain/flow';
import type { ScreeningHit, ScreeningPolicy } from '../domain/screening/types';
import { VerificationStatus } from '../domain/status';
import type { DomainEvent } from '../events/events';
import { logger } from '../logger';
import type { ListChanges } from '../ports/screening';
import type { ChangesScreener, ScreeningStore } from '../ports/screening-store';
import type { Deps } from './deps';
import { publishCommitted } from './events';
import { mergeHits, screeningPolicy } from './workflow/screening';

export type RescreenDeps = Pick<Deps, 'flows' | 'verifications' | 'screenings' | 'clock' | 'ids' | 'events' | 'outbox'>;

/** What one re-screen did: people passed over, hits found, events published. */
export interface RescreenReport {
  flows: string[];
  people: number;
  hits: number;
  published: number;
}

function store(deps: Pick<Deps, 'screenings'>): ScreeningStore {
  if (!deps.screenings) throw new Error("port 'screenings' is not given: declare it in the job's entry (src/entries.ts)");
  return deps.screenings;
}

/** `ScreeningHit`: the verification and the entry (list data, public), the score and its reasons, and the snapshot it came from. */
function hitEvent(deps: Pick<Deps, 'ids' | 'clock'>, flow: Flow, verificationId: string, hit: ScreeningHit, asOf: string): DomainEvent {
  const type = 'ScreeningHit' as const;
  return {
    type,
    detail: {
      id: deps.ids.next('evt'),
      type,
      created_at: deps.clock.now(),
      flow: flow.path,
      data: {
        verification_id: verificationId,
        entry: { list: hit.list, entry: hit.entry, reference: hit.reference, name: hit.name, programmes: hit.programmes },
        score: Number(hit.score.toFixed(4)),
        reasons: hit.reasons.slice(0, 10),
        snapshot: asOf,
      },
    },
  };
}

/**
 * Re-screens against a new snapshot's changed entries (`diffSnapshots`) the people of the flows that
 * opt in (`checks.screening.rescreen`), and publishes `ScreeningHit` (outbox, then EventBridge and the
 * webhooks) for each approved verification newly on a list. One pass: the changed entries alone are
 * indexed (`screenerOf`), and each person recorded by the pipeline (one small item per verification)
 * is looked up in that index once: the cost grows with the people and the changes, never with people
 * × all entries. A hit cleared on that verification is not raised again; an entry alerted on from the
 * same snapshot is not published twice (a repeated run). Only Approved verifications are alerted on:
 * the others are still being decided, or were refused.
 */
export async function rescreenApproved(deps: RescreenDeps, changes: readonly ListChanges[], screenerOf: ChangesScreener): Promise<RescreenReport> {
  const screenings = store(deps);
  const changed = changes.filter((c) => c.changed.length > 0);
  const report: RescreenReport = { flows: [], people: 0, hits: 0, published: 0 };
  if (changed.length === 0) return report;
  const asOf = new Map(changed.map((c) => [c.list, c.asOf]));
  const screener = screenerOf(changed);
  const now = new Date(deps.clock.now());
  for (const flow of await deps.flows.list()) {
    const policy = screeningPolicy(flow);
    const lists = policy?.rescreen ? policy.lists.filter((l) => asOf.has(l)) : [];
    if (!policy || lists.length === 0) continue;
    report.flows.push(flow.path);
    const scoped: ScreeningPolicy = { lists, threshold: policy.threshold, maxAgeDays: policy.maxAgeDays };
    let cursor: string | undefined;
    do {
      const page = await screenings.screened(flow.path, cursor);
      cursor = page.cursor;
      for (const record of page.records) {
        report.people++;
        const results = await Promise.all(record.people.map((p) => screener.screen(p, scoped, now)));
        const skipped = results.find((r) => r.status === 'not_evaluated');
        if (skipped?.status === 'not_evaluated') {
          logger.warn('re-screen not evaluated', { verificationId: record.verificationId, reason: skipped.reason });
          continue;
        }
        const hits = mergeHits(results.map((r) => (r.status === 'screened' ? r.hits : []))).filter((h) => h.score >= policy.threshold);
        if (hits.length === 0) continue;
        const [agg, cleared] = await Promise.all([deps.verifications.get(record.verificationId), screenings.clearances(record.verificationId)]);
        if (agg?.verification.status !== VerificationStatus.Approved || agg.verification.flow !== flow.path) continue;
        for (const hit of hits) {
          if (cleared.some((c) => c.list === hit.list && c.entry === hit.entry)) continue;
          report.hits++;
          const event = hitEvent(deps, flow, record.verificationId, hit, asOf.get(hit.list) ?? '');
          if (!(await screenings.alert(record.verificationId, hit, asOf.get(hit.list) ?? '', event))) continue;
          await publishCommitted(deps, [event]);
          report.published++;
          logger.info('screening hit on an approved verification', { verificationId: record.verificationId });
        }
      }
    } while (cursor !== undefined);
  }
  return report;
}
