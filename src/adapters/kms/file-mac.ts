import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { DocumentFingerprinter } from '../../ports/document-index';

/**
 * The local fingerprint key: 32 random bytes (hex) in a file (0600) of the data folder, made on first
 * use; HMAC-SHA256 with it, as KMS's GenerateMac does deployed.
 */
export class FileFingerprinter implements DocumentFingerprinter {
  private key: Buffer | undefined;
  constructor(private readonly file: string) {}

  private secret(): Buffer {
    if (this.key) return this.key;
    if (!existsSync(this.file)) {
      // `wx`: of two processes starting at once, one writes the key and the other reads it.
      try {
        writeFileSync(this.file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    this.key = Buffer.from(readFileSync(this.file, 'utf8').trim(), 'hex');
    if (this.key.length !== 32) throw new Error(`${this.file} does not hold a 32-byte hex key`);
    return this.key;
  }

  async fingerprint(message: string): Promise<string> {
    return createHmac('sha256', this.secret()).update(message).digest('base64url');
  }
}
