import { createHash } from 'node:crypto';
import type { AwsCredentialIdentity } from '@smithy/types';
import type { ReceiptSigner } from '../../ports/receipts';
import { type Fetch, kmsRequest } from '../kms/request';

/**
 * Signs with an AWS KMS asymmetric key (ECC_NIST_P256, ECDSA_SHA_256): the SHA-256 digest of the
 * message is sent (MessageType DIGEST), so the message may be any size and never leaves the function.
 * Two KMS calls (Sign, GetPublicKey) made with SigV4 over fetch: the function that signs does not carry
 * a whole KMS client for them.
 */
export class KmsReceiptSigner implements ReceiptSigner {
  private publicKey: Promise<string> | undefined;
  constructor(
    private readonly keyId: string,
    private readonly region: string,
    private readonly credentials: () => Promise<AwsCredentialIdentity>,
    private readonly send: Fetch = fetch as unknown as Fetch,
  ) {}

  private call(action: 'Sign' | 'GetPublicKey', body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return kmsRequest({ region: this.region, credentials: this.credentials, send: this.send }, action, body);
  }

  async sign(message: Uint8Array): Promise<{ signature: Uint8Array; keyId: string }> {
    const digest = createHash('sha256').update(message).digest('base64');
    const out = await this.call('Sign', { KeyId: this.keyId, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' });
    return { signature: Buffer.from(String(out.Signature), 'base64'), keyId: String(out.KeyId ?? this.keyId) };
  }

  publicKeyPem(): Promise<string> {
    this.publicKey ??= this.call('GetPublicKey', { KeyId: this.keyId }).then((out) => {
      const der = String(out.PublicKey);
      return `-----BEGIN PUBLIC KEY-----\n${der.match(/.{1,64}/g)?.join('\n')}\n-----END PUBLIC KEY-----\n`;
    });
    return this.publicKey.catch((error: unknown) => {
      this.publicKey = undefined;
      throw error;
    });
  }
}
