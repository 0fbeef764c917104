import type { AwsCredentialIdentity } from '@smithy/types';
import type { DocumentFingerprinter } from '../../ports/document-index';
import { type Fetch, kmsRequest } from './request';

/**
 * Document fingerprints made by AWS KMS (GenerateMac, HMAC_SHA_256) with a key that never leaves
 * KMS: only the function granted `kms:GenerateMac` can make one, and a leaked table cannot be
 * matched against guessed numbers without calling KMS as that function.
 */
export class KmsFingerprinter implements DocumentFingerprinter {
  constructor(
    private readonly keyId: string,
    private readonly region: string,
    private readonly credentials: () => Promise<AwsCredentialIdentity>,
    private readonly send: Fetch = fetch as unknown as Fetch,
  ) {}

  async fingerprint(message: string): Promise<string> {
    const out = await kmsRequest({ region: this.region, credentials: this.credentials, send: this.send }, 'GenerateMac', {
      KeyId: this.keyId,
      MacAlgorithm: 'HMAC_SHA_256',
      Message: Buffer.from(message, 'utf8').toString('base64'),
    });
    return Buffer.from(String(out.Mac), 'base64').toString('base64url');
  }
}
