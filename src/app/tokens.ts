import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex of a token: the only form in which tokens are stored. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex hashes. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** A new random API token: 32 bytes, base64url, with a recognisable prefix. */
export function newApiToken(): string {
  return `idv_${randomBytes(32).toString('base64url')}`;
}

/** The end-user session token of a verification: HMAC(secret, id), so it can be re-derived but is stored hashed. */
export function sessionToken(secret: Uint8Array, verificationId: string): string {
  return createHmac('sha256', secret).update(`session:${verificationId}`).digest('base64url');
}
