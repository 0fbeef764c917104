/** The soak's printed figures: requests by route and status, latency, faults, and each invariant with examples. */
import type { FaultEvent } from './faults';
import type { Failure, Invariant, Verdict } from './invariants';

const EXAMPLES = 5;

const INVARIANTS: { id: Invariant; label: string; figure: (v: Verdict) => number }[] = [
  { id: 'record-exists', label: "every 2xx answer's record exists", figure: (v) => v.figures.withoutRecord },
  { id: 'one-resource-per-key', label: 'no Idempotency-Key made two resources', figure: (v) => v.figures.duplicateKeys },
  { id: 'within-budget', label: 'no answer over the budget (or no answer at all)', figure: (v) => v.figures.overBudget },
  { id: 'no-5xx-but-503', label: 'no 5xx other than 503', figure: (v) => v.figures.status5xx },
  { id: 'answered', label: 'every request answered (no dropped connection)', figure: (v) => v.figures.networkErrors },
  { id: 'actionable', label: 'every verification still takes an action', figure: (v) => v.figures.bricked },
];

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')).join('\n');
}

/** A few failures, one per kind of request first (one bricked verification can fail hundreds of times). */
function examples(failures: Failure[]): Failure[] {
  const kind = (f: Failure) => f.detail.replace(/(ver|doc|whk)_\w+|#\d+|\d+ ms|key \S+|attempt \d+/g, '');
  const firsts = new Map<string, Failure>();
  for (const f of failures) if (!firsts.has(kind(f))) firsts.set(kind(f), f);
  return [...new Set([...firsts.values(), ...failures])].slice(0, EXAMPLES);
}

const ms = (n: number) => `${Math.round(n)}`;

export interface RunInfo {
  seed: number;
  minutes: number;
  budgetMs: number;
  workers: number;
  trafficSeconds: number;
  faults: FaultEvent[];
  snapshotProblems: string[];
}

/** The report as printed; the exit code follows `failed(verdict)`. */
export function formatReport(verdict: Verdict, run: RunInfo): string {
  const f = verdict.figures;
  const out: string[] = [];
  out.push(`Soak: seed ${run.seed}, ${run.minutes} min, ${run.workers} mixed clients and 1 hot, budget ${run.budgetMs} ms; traffic ran ${run.trafficSeconds.toFixed(0)} s, ${f.requests} requests (${(f.requests / Math.max(1, run.trafficSeconds)).toFixed(1)}/s)`);
  out.push('');
  const statuses = [...new Set(Object.values(f.byRoute).flatMap((r) => Object.keys(r)))].sort();
  const routes = Object.keys(f.byRoute).sort();
  out.push(
    table([
      ['route', ...statuses, 'p50 ms', 'p95 ms', 'max ms'],
      ...routes.map((route) => {
        const l = f.latencyByRoute[route];
        return [route, ...statuses.map((s) => String(f.byRoute[route]?.[s] ?? '')), ms(l?.p50 ?? 0), ms(l?.p95 ?? 0), ms(l?.max ?? 0)];
      }),
      ['all', ...statuses.map((s) => String(routes.reduce((n, r) => n + (f.byRoute[r]?.[s] ?? 0), 0))), ms(f.latency.p50), ms(f.latency.p95), ms(f.latency.max)],
    ]),
  );
  out.push('');
  const kills = run.faults.filter((e) => e.kind === 'kill');
  const freezes = run.faults.filter((e) => e.kind === 'freeze');
  const recovery = run.faults.map((e) => e.recoveredMs ?? Number.NaN).filter((n) => !Number.isNaN(n));
  out.push(
    `Faults: ${kills.length} kills, ${freezes.length} freezes (${(freezes.reduce((s, e) => s + (e.frozenMs ?? 0), 0) / 1000).toFixed(1)} s frozen in all); healthy again after ${recovery.length ? `${ms(Math.min(...recovery))}-${ms(Math.max(...recovery))} ms` : '-'}`,
  );
  out.push(`503 answers: ${f.status503}; client timeouts: ${f.timeouts}; keys given up: ${f.gaveUp} (of which made all the same: ${f.gaveUpButCommitted}); retries told "already done" after an unknown outcome: ${f.retryAnswered4xx}; keys whose first request was answered "still being processed": ${f.firstAnsweredInProgress}`);
  out.push('');
  out.push(
    table([
      ['invariant', 'count', 'verdict'],
      ...INVARIANTS.map((i) => [i.label, String(i.figure(verdict)), i.figure(verdict) === 0 ? 'PASS' : 'FAIL']),
    ]),
  );
  for (const i of INVARIANTS) {
    const failures = verdict.failures.filter((x) => x.invariant === i.id);
    if (failures.length === 0) continue;
    out.push('');
    out.push(`${i.label}: ${failures.length} failure(s), e.g.`);
    for (const x of examples(failures)) out.push(`  ${x.detail}`);
  }
  if (verdict.notes.length) {
    out.push('');
    out.push(`Notes (${verdict.notes.length}), e.g.`);
    for (const n of verdict.notes.slice(0, EXAMPLES)) out.push(`  ${n}`);
  }
  if (run.snapshotProblems.length) {
    out.push('');
    out.push(`Reads after the run that got no clear answer (${run.snapshotProblems.length}), e.g.`);
    for (const p of run.snapshotProblems.slice(0, EXAMPLES)) out.push(`  ${p}`);
  }
  return out.join('\n');
}

/** Whether any invariant failed. */
export const failed = (verdict: Verdict) => verdict.failures.length > 0;
