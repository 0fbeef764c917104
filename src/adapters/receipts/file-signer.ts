import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ReceiptSigner } from '../../ports/receipts';

/**
 * The local receipt key: a P-256 private key in a PEM file (0600) in the data folder, made on first
 * use, with its public key beside it (`<file>.pub.pem`) for scripts/verify-receipt.ts.
 */
export class FileReceiptSigner implements ReceiptSigner {
  private key: KeyObject | undefined;
  constructor(private readonly file: string) {}

  private privateKey(): KeyObject {
    if (this.key) return this.key;
    if (!existsSync(this.file)) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      // `wx`: of two processes starting at once, one writes the key and the other reads it.
      try {
        writeFileSync(this.file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
        writeFileSync(`${this.file}.pub.pem`, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    this.key = createPrivateKey(readFileSync(this.file, 'utf8'));
    return this.key;
  }

  async sign(message: Uint8Array): Promise<{ signature: Uint8Array; keyId: string }> {
    const key = this.privateKey();
    return { signature: sign('sha256', message, key), keyId: `local:${fingerprint(key)}` };
  }

  async publicKeyPem(): Promise<string> {
    return createPublicKey(this.privateKey()).export({ type: 'spki', format: 'pem' }).toString();
  }
}

function fingerprint(key: KeyObject): string {
  return createHash('sha256').update(createPublicKey(key).export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);
}
