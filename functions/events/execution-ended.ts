import { executionEnded } from '../../src/app/workflow/execution-ended';
import { getDeps } from '../../src/container';
import { logger, withLambdaContext } from '../../src/logger';
import { ENTRY_PORTS } from '../../src/entries';

/** Target of the rule on "Step Functions Execution Status Change" (FAILED, TIMED_OUT, ABORTED): the fail-run logic. */
export const handler = withLambdaContext(async (event: { detail?: unknown }): Promise<unknown> => {
  logger.appendKeys({ task: 'ExecutionEnded' });
  return executionEnded(await getDeps(ENTRY_PORTS['events/execution-ended']), event.detail);
});
