import { UnauthorizedError } from '../domain/errors';
import type { Deps } from './deps';
import { hashToken, sameHash } from './tokens';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Resolves `Authorization: Bearer <token>` to the token's name; UnauthorizedError when missing, malformed or unknown. */
export async function authorize(deps: Pick<Deps, 'tokens'>, header: string | undefined): Promise<{ tokenName: string }> {
  const token = header ? BEARER.exec(header)?.[1] : undefined;
  if (!token || token.length > 512) throw new UnauthorizedError();
  const hash = hashToken(token);
  const record = await deps.tokens.findByHash(hash);
  if (!record || !sameHash(record.hash, hash)) throw new UnauthorizedError();
  return { tokenName: record.name };
}
