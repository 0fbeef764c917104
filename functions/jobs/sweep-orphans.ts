import { type SweepOrphansOptions, sweepOrphans } from '../../src/app/sweep-orphans';
import { getDeps } from '../../src/container';
import { ENTRY_PORTS } from '../../src/entries';
import { logger, withLambdaContext } from '../../src/logger';

/**
 * Scheduled (daily on AWS, hourly locally): removes stored images no record names once past the
 * grace, and a liveness check's images its challenge does not keep once past its expiry plus the
 * grace (where the entry is given the challenge and session stores). An operator can invoke it with
 * `{ "lookbackSeconds": null }` to look at every age. Logs counts only, never a key.
 */
export const handler = withLambdaContext(async (event?: SweepOrphansOptions) => {
  const result = await sweepOrphans(await getDeps(ENTRY_PORTS['jobs/sweep-orphans']), {
    ...(event?.lookbackSeconds !== undefined && { lookbackSeconds: event.lookbackSeconds }),
  });
  logger.info('orphan-image sweep', { ...result });
  return result;
});
