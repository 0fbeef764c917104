import { NotFoundError } from '../domain/errors';
import type { Receipt } from '../domain/receipt';
import type { Deps } from './deps';
import { loadVerification } from './load';

/**
 * The signed receipt of the verification's latest automatic decision (README "Fraud signals and
 * receipts"): check it offline with scripts/verify-receipt.ts, the public key and the images.
 */
export async function getVerificationReceipt(deps: Pick<Deps, 'flows' | 'verifications' | 'receipts'>, flowPath: string, id: string): Promise<Receipt> {
  await loadVerification(deps, flowPath, id);
  const receipt = await deps.receipts.latest(id);
  if (!receipt) throw new NotFoundError('No decision receipt yet: the verification has not been processed');
  return receipt;
}
