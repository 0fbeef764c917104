import { expireVerifications } from '../../src/app/expire-verifications';
import { getDeps } from '../../src/container';

/** Scheduled (hourly on AWS, every minute locally): Started verifications past their flow's limit → Expired. */
export async function handler(): Promise<{ expired: number }> {
  return expireVerifications(await getDeps(['verifications', 'clock', 'ids']));
}
