import { purgeDeleted } from '../../src/app/purge-deleted';
import { getDeps } from '../../src/container';
import { ENTRY_PORTS } from '../../src/entries';
import { withLambdaContext } from '../../src/logger';

/** Scheduled (hourly on AWS, with the expiry timer locally): removes soft-deleted verifications past retention. */
export const handler = withLambdaContext(async (): Promise<{ purged: number }> => {
  return purgeDeleted(await getDeps(ENTRY_PORTS['jobs/purge-deleted']));
});
