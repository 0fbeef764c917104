import { createHash } from 'node:crypto';
import { RECEIPT_ALGORITHM, type Receipt, canonicalJson, receiptPayload } from '../../domain/receipt';
import { VerificationStatus } from '../../domain/status';
import { SYSTEM_USER } from '../../domain/transitions';
import type { Deps } from '../deps';
import type { RunInput } from './run';

const DECIDED: readonly VerificationStatus[] = [VerificationStatus.Approved, VerificationStatus.Rejected, VerificationStatus.DoubleCheck];

/**
 * Signs and stores the receipt of a run whose automatic decision is recorded (processedRun = run).
 * Called after FinishRun's write and again by a retried FinishRun (which finds the run processed), so
 * a receipt lost to a crash between the two is made by the retry; a run that has one keeps it.
 * Undefined when the run is not (or no longer) the recorded one.
 */
export async function recordReceipt(deps: Pick<Deps, 'verifications' | 'receipts' | 'receiptSigner'>, input: RunInput): Promise<Receipt | undefined> {
  const agg = await deps.verifications.get(input.verificationId);
  if (!agg || agg.verification.run !== input.run || agg.verification.processedRun !== input.run) return undefined;
  if (await deps.receipts.has(input.verificationId, input.run)) return undefined;
  // The automatic decision: the newest system history entry into a decided status.
  const decision = [...agg.history].reverse().find((h) => h.user === SYSTEM_USER && DECIDED.includes(h.toStatus));
  if (!decision) return undefined;
  const payload = receiptPayload(agg, input.run, decision.toStatus, decision.createdAt);
  const bytes = Buffer.from(canonicalJson(payload), 'utf8');
  const { signature, keyId } = await deps.receiptSigner.sign(bytes);
  const receipt: Receipt = {
    payload,
    payload_sha256: createHash('sha256').update(bytes).digest('hex'),
    algorithm: RECEIPT_ALGORITHM,
    signature: Buffer.from(signature).toString('base64'),
    key_id: keyId,
    public_key: await deps.receiptSigner.publicKeyPem(),
  };
  await deps.receipts.put(receipt);
  return receipt;
}
