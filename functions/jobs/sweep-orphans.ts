import { type SweepOrphansOptions, sweepOrphans } from '../../src/app/sweep-orphans';
import { getDeps } from '../../src/container';
import { ENTRY_PORTS } from '../../src/entries';
import { logger, withLambdaContext } from '../../src/logger';

/**
 * Scheduled (daily on AWS, hourly locally): removes stored images no record names once past the
 * grace. An operator can invoke it with `{ "lookbackSeconds": null }` to look at every age.
 */
export const handler = withLambdaContext(async (event?: SweepOrphansOptions) => {
  const result = await sweepOrphans(await getDeps(ENTRY_PORTS['jobs/sweep-orphans']), {
    ...(event?.lookbackSeconds !== undefined && { lookbackSeconds: event.lookbackSeconds }),
  });
  logger.info('orphan-image sweep', { ...result });
  return result;
});
