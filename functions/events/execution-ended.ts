import { executionEnded } from '../../src/app/workflow/execution-ended';
import { getDeps } from '../../src/container';
import { logger } from '../../src/logger';

/** Target of the rule on "Step Functions Execution Status Change" (FAILED, TIMED_OUT, ABORTED): the fail-run logic. */
export async function handler(event: { detail?: unknown }): Promise<unknown> {
  logger.resetKeys();
  logger.appendKeys({ task: 'ExecutionEnded' });
  return executionEnded(await getDeps(['verifications', 'flows', 'clock', 'ids', 'events', 'outbox']), event.detail);
}
