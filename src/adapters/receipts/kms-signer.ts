import { createHash } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity } from '@smithy/types';
import type { ReceiptSigner } from '../../ports/receipts';

type Fetch = (url: string, init: { method: string; headers: Record<string, string>; body: string }) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

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

  private async call(action: 'Sign' | 'GetPublicKey', body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const hostname = `kms.${this.region}.amazonaws.com`;
    const signer = new SignatureV4({ service: 'kms', region: this.region, credentials: this.credentials, sha256: Sha256 });
    const signed = await signer.sign({
      method: 'POST',
      protocol: 'https:',
      hostname,
      path: '/',
      query: {},
      headers: { host: hostname, 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `TrentService.${action}` },
      body: JSON.stringify(body),
    });
    const res = await this.send(`https://${hostname}/`, { method: 'POST', headers: signed.headers, body: signed.body as string });
    const out = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`KMS ${action} failed (${res.status} ${String(out.__type ?? '')})`);
    return out;
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
