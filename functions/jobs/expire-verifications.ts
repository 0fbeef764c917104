import { expireVerifications } from '../../src/app/expire-verifications';
import { getDeps } from '../../src/container';
import { ENTRY_PORTS } from '../../src/entries';
import { withLambdaContext } from '../../src/logger';

/** Scheduled (hourly on AWS, every minute locally): Started verifications past their flow's limit → Expired. */
export const handler = withLambdaContext(async (): Promise<{ expired: number }> => {
  return expireVerifications(await getDeps(ENTRY_PORTS['jobs/expire-verifications']));
});
