import { VerificationStatus } from '../../domain/status';
import { isCurrentRun } from '../../domain/transitions';
import { METRIC } from '../../ports/metrics';
import { logger } from '../../logger';
import type { RunTicket } from '../../ports/outbox';
import type { Deps } from '../deps';
import { type FinishDeps, failRun } from './finish-run';

/** The sweeper reads run tickets, asks Step Functions about executions, restarts or fails runs. */
export type SweepDeps = FinishDeps & Pick<Deps, 'workflow' | 'metrics'>;

/** How the run sweeper decides that a run is lost. */
export interface SweepPolicy {
  /** A run ticket is looked at once it has been quiet this long (since its commit or the last look). */
  checkAfterSeconds: number;
  /** An execution still running after this long is lost (deployed: past the state machine's own timeout). */
  maxRunSeconds: number;
  /** Executions per run, the first included; when the last one is lost the run fails to Double Check. */
  maxAttempts: number;
}

export interface SweepResult {
  /** Tickets of runs that had ended (or were superseded): removed. */
  cleared: number;
  /** Runs whose execution is still live: looked at again later. */
  running: number;
  /** Runs with no live execution: started again (a new attempt). */
  restarted: number;
  /** Runs that used up their attempts: failed to Double Check with a private note. */
  failed: number;
}

const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

/**
 * The run sweeper (every minute deployed, on the local runtime's timer and at its start): every run
 * ticket quiet for `checkAfterSeconds` is checked against the verification and the workflow engine.
 * A run no longer current loses its ticket; a live execution is left alone until `maxRunSeconds`;
 * a run with no live execution (never started, crashed with the process, failed or timed out without
 * its fail-safe) is started again, and after `maxAttempts` it is failed to Double Check, so no
 * verification stays Submitted. Safe to run twice at once: ticket updates are conditional, and every
 * pipeline write is conditioned on the run.
 */
export async function sweepRuns(deps: SweepDeps, policy: SweepPolicy): Promise<SweepResult> {
  const result: SweepResult = { cleared: 0, running: 0, restarted: 0, failed: 0 };
  const now = deps.clock.now();
  const before = new Date(Date.parse(now) - policy.checkAfterSeconds * 1000).toISOString();
  // Tickets looked at in this sweep are moved past `before`; the loop ends when none is left due.
  const seen = new Set<string>();
  // How long the longest-waiting verification looked at has been Submitted: the alarm on verifications left Submitted watches it.
  const oldest = { seconds: 0 };
  for (;;) {
    const due = (await deps.outbox.dueRuns(policy.checkAfterSeconds === 0 ? nextInstant(now) : before, 50)).filter((t) => !seen.has(key(t)));
    if (due.length === 0) {
      deps.metrics.record(METRIC.submittedOldestAge, oldest.seconds, 'Seconds');
      return result;
    }
    for (const ticket of due) {
      seen.add(key(ticket));
      try {
        await sweepOne(deps, policy, now, ticket, result, oldest);
      } catch (error) {
        // One ticket's trouble (e.g. the engine throttling) must not stop the others; it stays due.
        logger.warn('run sweep failed for one run', { verificationId: ticket.verificationId, run: ticket.run, errorName: (error as Error).name });
      }
    }
  }
}

const key = (t: RunTicket) => `${t.verificationId}#${t.run}`;
/** Just after `now`, so that a sweep with no wait also takes tickets written at this very instant. */
const nextInstant = (now: string) => `${now}~`;

async function sweepOne(deps: SweepDeps, policy: SweepPolicy, now: string, ticket: RunTicket, result: SweepResult, oldest: { seconds: number }): Promise<void> {
  const agg = await deps.verifications.get(ticket.verificationId);
  if (!isCurrentRun(agg, ticket.run)) {
    await deps.outbox.removeRun(ticket);
    result.cleared++;
    return;
  }
  const { status, submittedAt } = agg.verification;
  if (status === VerificationStatus.Submitted && submittedAt) oldest.seconds = Math.max(oldest.seconds, seconds(submittedAt, now));
  const execution = { verificationId: ticket.verificationId, run: ticket.run, attempt: ticket.attempt };
  const state = await deps.workflow.state(execution);
  if (state === 'running' && seconds(ticket.startedAt, now) < policy.maxRunSeconds) {
    await deps.outbox.updateRun(ticket, { ...ticket, checkedAt: now });
    result.running++;
    return;
  }
  const lost = state === 'running' ? 'RunTimedOut' : state === 'ended' ? 'RunEnded' : 'RunNotRunning';
  if (ticket.attempt + 1 < policy.maxAttempts) {
    const next = { ...ticket, attempt: ticket.attempt + 1, startedAt: now, checkedAt: now };
    // Claim the restart first: of two sweepers, one starts it.
    if (!(await deps.outbox.updateRun(ticket, next))) return;
    logger.warn('run restarted by the sweeper', { verificationId: ticket.verificationId, run: ticket.run, attempt: next.attempt, reason: lost });
    await deps.workflow.start({ verificationId: next.verificationId, run: next.run, attempt: next.attempt });
    result.restarted++;
    return;
  }
  logger.warn('run failed by the sweeper', { verificationId: ticket.verificationId, run: ticket.run, attempts: ticket.attempt + 1, reason: lost });
  await failRun(deps, { verificationId: ticket.verificationId, run: ticket.run, error: { Error: `${lost} after ${ticket.attempt + 1} attempts` } });
  await deps.outbox.removeRun(ticket);
  result.failed++;
}
