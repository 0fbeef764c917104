import { expireVerifications } from '../../src/app/expire-verifications';
import { getDeps } from '../../src/container';
import { ENTRY_PORTS } from '../../src/entries';

/** Scheduled (hourly on AWS, every minute locally): Started verifications past their flow's limit → Expired. */
export async function handler(): Promise<{ expired: number }> {
  return expireVerifications(await getDeps(ENTRY_PORTS['jobs/expire-verifications']));
}
