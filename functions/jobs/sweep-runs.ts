import { type SweepPolicy, sweepRuns } from '../../src/app/workflow/sweep-runs';
import { getDeps } from '../../src/container';
import { RUN_TIMEOUT_SECONDS } from '../../statemachines/tasks';
import { ENTRY_PORTS } from '../../src/entries';
import { withLambdaContext } from '../../src/logger';

/** Deployed: a ticket is looked at after a quiet minute; a live execution is lost only past the state machine's timeout. */
export const SWEEP_POLICY: SweepPolicy = { checkAfterSeconds: 60, maxRunSeconds: RUN_TIMEOUT_SECONDS + 300, maxAttempts: 3 };

/**
 * Every minute: runs with no live execution are started again or failed (docs/explanation/architecture.md "Processing pipeline").
 * The local runtime passes `checkAfterSeconds: 0` once at start: whatever was running died with the process.
 */
export const handler = withLambdaContext(async (event?: { checkAfterSeconds?: number }): Promise<Awaited<ReturnType<typeof sweepRuns>>> => {
  const checkAfterSeconds = typeof event?.checkAfterSeconds === 'number' ? event.checkAfterSeconds : SWEEP_POLICY.checkAfterSeconds;
  return sweepRuns(await getDeps(ENTRY_PORTS['jobs/sweep-runs']), { ...SWEEP_POLICY, checkAfterSeconds });
});
