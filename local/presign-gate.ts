import { timingSafeEqual } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

export interface GateResult {
  ok: boolean;
  status: number;
  code: string;
  message: string;
}

const REQUIRED = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature'];

function deny(status: number, code: string, message: string): GateResult {
  return { ok: false, status, code, message };
}

function parseAmzDate(s: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  if (!m) return undefined;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
}

/**
 * Checks a presigned S3 GET link as S3 does: SigV4 query signature recomputed with the SDK's own
 * signer (constant-time comparison), then expiry. The local S3 server checks neither, so the local
 * runtime serves presigned links only through this gate.
 */
export async function verifyPresigned(
  method: string,
  url: URL,
  host: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
  region: string,
  now = Date.now(),
): Promise<GateResult> {
  const q = url.searchParams;
  for (const name of REQUIRED) {
    if (!q.get(name)) return deny(403, 'AccessDenied', `Query-string authentication requires ${name}`);
  }
  if (q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return deny(400, 'AuthorizationQueryParametersError', 'Unsupported algorithm');
  const [accessKey, , credRegion, service] = (q.get('X-Amz-Credential') ?? '').split('/');
  if (accessKey !== credentials.accessKeyId) return deny(403, 'InvalidAccessKeyId', 'The access key does not exist');
  if (credRegion !== region || service !== 's3') return deny(400, 'AuthorizationQueryParametersError', 'Wrong credential scope');
  const signingDate = parseAmzDate(q.get('X-Amz-Date') ?? '');
  const expires = Number(q.get('X-Amz-Expires'));
  if (!signingDate || !Number.isInteger(expires) || expires < 1 || expires > 604_800) {
    return deny(400, 'AuthorizationQueryParametersError', 'Malformed X-Amz-Date or X-Amz-Expires');
  }
  const signedHeaders = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  if (signedHeaders.join(';') !== 'host') return deny(403, 'AccessDenied', 'Only host may be signed for this endpoint');

  const query: Record<string, string> = {};
  for (const [k, v] of q) if (k !== 'X-Amz-Signature' && k !== 'X-Amz-Content-Sha256') query[k] = v;
  // The payload hash (UNSIGNED-PAYLOAD for S3 links) enters the signature through this header, hoisted into the query.
  const headers: Record<string, string> = { host };
  const payload = q.get('X-Amz-Content-Sha256');
  if (payload) headers['X-Amz-Content-Sha256'] = payload;
  const signer = new SignatureV4({ credentials, region, service: 's3', sha256: Sha256, uriEscapePath: false });
  const expected = await signer.presign(
    { method, protocol: url.protocol, hostname: url.hostname, port: url.port ? Number(url.port) : undefined, path: url.pathname, query, headers },
    { signingDate, expiresIn: expires },
  );
  const want = Buffer.from(String(expected.query?.['X-Amz-Signature'] ?? ''), 'utf8');
  const got = Buffer.from(q.get('X-Amz-Signature') ?? '', 'utf8');
  if (want.length !== got.length || !timingSafeEqual(want, got)) {
    return deny(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided');
  }
  if (now > signingDate.getTime() + expires * 1000) return deny(403, 'AccessDenied', 'Request has expired');
  if (now < signingDate.getTime() - 15 * 60 * 1000) return deny(403, 'AccessDenied', 'Request is not yet valid');
  return { ok: true, status: 200, code: 'OK', message: '' };
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

/**
 * Checks a request signed in its Authorization header (AWS SigV4, as every SDK client signs) with
 * the given credentials: access key, credential scope, the signature recomputed with the SDK's own
 * signer over the signed headers (the declared payload hash among them) and the time (±15 minutes,
 * as S3). The local S3 server checks none of this, so it only ever sees requests that passed here.
 */
export async function verifySignedRequest(
  method: string,
  rawUrl: string,
  headers: Record<string, string | string[] | undefined>,
  credentials: { accessKeyId: string; secretAccessKey: string },
  region: string,
  service: string,
  now = Date.now(),
): Promise<GateResult> {
  const header = headers.authorization;
  const m = typeof header === 'string' ? AUTHORIZATION.exec(header) : null;
  if (!m) return deny(403, 'AccessDenied', 'A request signed with AWS Signature Version 4 is required');
  const [, accessKey = '', day = '', credRegion, credService, signedList = '', signature = ''] = m;
  const keyGot = Buffer.from(accessKey);
  const keyWant = Buffer.from(credentials.accessKeyId);
  if (keyGot.length !== keyWant.length || !timingSafeEqual(keyGot, keyWant)) return deny(403, 'InvalidAccessKeyId', 'The access key does not exist');
  if (credRegion !== region || credService !== service) return deny(403, 'SignatureDoesNotMatch', 'Wrong credential scope');
  const amzDate = headers['x-amz-date'];
  const signingDate = typeof amzDate === 'string' ? parseAmzDate(amzDate) : undefined;
  if (!signingDate || !String(amzDate).startsWith(day)) return deny(403, 'AccessDenied', 'Missing or malformed X-Amz-Date');
  if (Math.abs(now - signingDate.getTime()) > 15 * 60 * 1000) return deny(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large');
  const signedNames = signedList.split(';');
  if (!signedNames.includes('host') || !signedNames.includes('x-amz-date')) return deny(403, 'AccessDenied', 'Host and X-Amz-Date must be signed');
  const signedHeaders: Record<string, string> = {};
  for (const name of signedNames) {
    const value = headers[name];
    if (value === undefined) return deny(403, 'AccessDenied', `Signed header ${name} is missing`);
    signedHeaders[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const [path = '/', search = ''] = rawUrl.split(/\?(.*)/s);
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    const prev = query[k];
    query[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
  }
  const signer = new SignatureV4({ credentials, region, service, sha256: Sha256, uriEscapePath: service !== 's3' });
  const host = signedHeaders.host ?? '';
  const signed = await signer.sign({ method, protocol: 'http:', hostname: host, path, query, headers: signedHeaders }, { signingDate });
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization ?? ''))?.[1] ?? '';
  const want = Buffer.from(expected);
  const got = Buffer.from(signature);
  if (want.length !== got.length || !timingSafeEqual(want, got)) {
    return deny(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided');
  }
  return { ok: true, status: 200, code: 'OK', message: '' };
}
