import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileFingerprinter } from '../../../src/adapters/kms/file-mac';
import { KmsFingerprinter } from '../../../src/adapters/kms/mac';
import { documentFingerprintMessage } from '../../../src/app/workflow/duplicates';

describe('document fingerprint message', () => {
  it('is type, country and number upper-cased, the number reduced to letters and digits', () => {
    expect(documentFingerprintMessage('passport', 'fra', '12ab-34 56')).toBe('PASSPORT|FRA|12AB3456');
  });
});

describe('local fingerprint key file', () => {
  it('makes a 32-byte key on first use (0600) and fingerprints with it across instances; another key gives another fingerprint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idv-fp-'));
    try {
      const file = join(dir, 'fingerprint-key');
      const first = await new FileFingerprinter(file).fingerprint('PASSPORT|FRA|X1');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(Buffer.from(readFileSync(file, 'utf8'), 'hex')).toHaveLength(32);
      expect(await new FileFingerprinter(file).fingerprint('PASSPORT|FRA|X1')).toBe(first);
      expect(first).toBe(createHmac('sha256', Buffer.from(readFileSync(file, 'utf8'), 'hex')).update('PASSPORT|FRA|X1').digest('base64url'));
      expect(await new FileFingerprinter(file).fingerprint('PASSPORT|FRA|X2')).not.toBe(first);
      expect(await new FileFingerprinter(join(dir, 'other-key')).fingerprint('PASSPORT|FRA|X1')).not.toBe(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('KMS fingerprinter', () => {
  it('sends GenerateMac (HMAC_SHA_256) with the message in base64, signed with SigV4, and returns the MAC as base64url', async () => {
    const calls: { url: string; headers: Record<string, string>; body: Record<string, unknown> }[] = [];
    const mac = Buffer.from([0xfb, 0xff, 0x01, 0x02]);
    const send = async (url: string, init: { headers: Record<string, string>; body: string }) => {
      calls.push({ url, headers: init.headers, body: JSON.parse(init.body) as Record<string, unknown> });
      return { ok: true, status: 200, json: async () => ({ KeyId: 'k', Mac: mac.toString('base64'), MacAlgorithm: 'HMAC_SHA_256' }) };
    };
    const fp = new KmsFingerprinter('arn:aws:kms:eu-west-1:1:key/h', 'eu-west-1', async () => ({ accessKeyId: 'AKID', secretAccessKey: 'secret' }), send);
    expect(await fp.fingerprint('PASSPORT|FRA|X1')).toBe(mac.toString('base64url'));
    expect(calls[0]?.url).toBe('https://kms.eu-west-1.amazonaws.com/');
    expect(calls[0]?.headers['x-amz-target']).toBe('TrentService.GenerateMac');
    expect(calls[0]?.body).toEqual({ KeyId: 'arn:aws:kms:eu-west-1:1:key/h', MacAlgorithm: 'HMAC_SHA_256', Message: Buffer.from('PASSPORT|FRA|X1').toString('base64') });
    expect(calls[0]?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-west-1\/kms\/aws4_request/);
  });

  it('fails with the KMS error type, never the message', async () => {
    const send = async () => ({ ok: false, status: 400, json: async () => ({ __type: 'KMSInvalidStateException', message: 'PASSPORT|FRA|X1' }) });
    const fp = new KmsFingerprinter('k', 'eu-west-1', async () => ({ accessKeyId: 'A', secretAccessKey: 'S' }), send);
    await expect(fp.fingerprint('PASSPORT|FRA|X1')).rejects.toThrow('KMS GenerateMac failed (400 KMSInvalidStateException)');
  });
});
