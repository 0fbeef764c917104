import type { Receipt } from '../domain/receipt';

/**
 * Signs decision receipts with an asymmetric key whose private half the service cannot export:
 * a KMS key deployed (ECC_NIST_P256, SIGN_VERIFY), a key file in the data folder locally.
 */
export interface ReceiptSigner {
  /** ECDSA-SHA256 over `message` (DER), and the id of the key that made it. */
  sign(message: Uint8Array): Promise<{ signature: Uint8Array; keyId: string }>;
  /** The public key as PEM (SPKI). */
  publicKeyPem(): Promise<string>;
}

/** Receipts by verification and run; one per run, written once. */
export interface ReceiptRepository {
  /** Writes the receipt unless one exists for its run (a retried FinishRun keeps the first). */
  put(receipt: Receipt): Promise<void>;
  /** The receipt of the verification's latest recorded run. */
  latest(verificationId: string): Promise<Receipt | undefined>;
  has(verificationId: string, run: number): Promise<boolean>;
  /** Removes every receipt of the verification (the purge: receipts hold its extracted data). */
  removeAll(verificationId: string): Promise<void>;
}
