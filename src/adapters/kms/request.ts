import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity } from '@smithy/types';
import { ServiceUnavailableError } from '../../domain/errors';

export type Fetch = (url: string, init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal }) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** A KMS call that has not answered in this long is given up (503): KMS answers in milliseconds. */
const KMS_TIMEOUT_MS = 2000;

export interface KmsEndpoint {
  region: string;
  credentials: () => Promise<AwsCredentialIdentity>;
  send: Fetch;
}

/**
 * One AWS KMS JSON call signed with SigV4 over fetch: the functions that sign receipts or make
 * fingerprints send one or two KMS actions and do not carry a whole KMS client for them. A failure
 * names the KMS error type, never its message.
 */
export async function kmsRequest(kms: KmsEndpoint, action: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const hostname = `kms.${kms.region}.amazonaws.com`;
  const signer = new SignatureV4({ service: 'kms', region: kms.region, credentials: kms.credentials, sha256: Sha256 });
  const signed = await signer.sign({
    method: 'POST',
    protocol: 'https:',
    hostname,
    path: '/',
    query: {},
    headers: { host: hostname, 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `TrentService.${action}` },
    body: JSON.stringify(body),
  });
  let res: Awaited<ReturnType<Fetch>>;
  let out: Record<string, unknown>;
  try {
    res = await kms.send(`https://${hostname}/`, { method: 'POST', headers: signed.headers, body: signed.body as string, signal: AbortSignal.timeout(KMS_TIMEOUT_MS) });
    out = (await res.json()) as Record<string, unknown>;
  } catch {
    // No answer, a broken connection or a body that is not JSON: nothing was decided, try again later.
    throw new ServiceUnavailableError();
  }
  if (!res.ok) throw new Error(`KMS ${action} failed (${res.status} ${String(out.__type ?? '')})`);
  return out;
}
