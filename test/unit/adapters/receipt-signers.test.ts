import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileReceiptSigner } from '../../../src/adapters/receipts/file-signer';
import { KmsReceiptSigner } from '../../../src/adapters/receipts/kms-signer';
import { ServiceUnavailableError } from '../../../src/domain/errors';

describe('local receipt key file', () => {
  it('makes a P-256 key on first use (0600, public key beside it) and signs with it across instances', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idv-receipt-'));
    try {
      const file = join(dir, 'receipt-key.pem');
      const message = Buffer.from('{"a":1}');
      const first = await new FileReceiptSigner(file).sign(message);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const second = await new FileReceiptSigner(file).sign(message);
      expect(second.keyId).toBe(first.keyId);
      const pub = readFileSync(`${file}.pub.pem`, 'utf8');
      expect(verify('sha256', message, pub, first.signature)).toBe(true);
      expect(verify('sha256', Buffer.from('{"a":2}'), pub, first.signature)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('KMS receipt signer', () => {
  it('sends the SHA-256 digest (MessageType DIGEST) signed with SigV4, and turns the public key into PEM', async () => {
    const calls: { url: string; headers: Record<string, string>; body: Record<string, unknown> }[] = [];
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const der = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const send = async (url: string, init: { headers: Record<string, string>; body: string }) => {
      const body = JSON.parse(init.body) as Record<string, unknown>;
      calls.push({ url, headers: init.headers, body });
      const out = init.headers['x-amz-target'] === 'TrentService.Sign' ? { KeyId: 'arn:aws:kms:eu-west-1:1:key/k', Signature: Buffer.from('sig').toString('base64') } : { PublicKey: der };
      return { ok: true, status: 200, json: async () => out };
    };
    const signer = new KmsReceiptSigner('arn:aws:kms:eu-west-1:1:key/k', 'eu-west-1', async () => ({ accessKeyId: 'AKID', secretAccessKey: 'secret' }), send);
    const message = Buffer.from('payload');
    const out = await signer.sign(message);
    expect(Buffer.from(out.signature).toString()).toBe('sig');
    expect(calls[0]?.url).toBe('https://kms.eu-west-1.amazonaws.com/');
    expect(calls[0]?.body).toEqual({ KeyId: 'arn:aws:kms:eu-west-1:1:key/k', Message: createHash('sha256').update(message).digest('base64'), MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' });
    expect(calls[0]?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-west-1\/kms\/aws4_request/);
    const pem = await signer.publicKeyPem();
    expect(createPublicKey(pem).export({ type: 'spki', format: 'der' }).toString('base64')).toBe(der);
  });

  it('fails with the KMS error type, never the message', async () => {
    const send = async () => ({ ok: false, status: 400, json: async () => ({ __type: 'KMSInvalidStateException', message: 'key disabled' }) });
    const signer = new KmsReceiptSigner('k', 'eu-west-1', async () => ({ accessKeyId: 'A', secretAccessKey: 'S' }), send);
    await expect(signer.sign(Buffer.from('x'))).rejects.toThrow('KMS Sign failed (400 KMSInvalidStateException)');
  });

  it('gives up on a KMS that does not answer (its own timeout), as a 503, never a hang', async () => {
    let signal: AbortSignal | undefined;
    const send = (_url: string, init: { signal?: AbortSignal }) => {
      signal = init.signal;
      return new Promise<never>((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    };
    const signer = new KmsReceiptSigner('k', 'eu-west-1', async () => ({ accessKeyId: 'A', secretAccessKey: 'S' }), send);
    await expect(signer.sign(Buffer.from('x'))).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(signal?.aborted).toBe(true);
  });
});
