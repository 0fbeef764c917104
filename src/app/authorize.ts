import { UnauthorizedError } from '../domain/errors';
import type { Deps } from './deps';
import { hashToken, sameHash } from './tokens';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** What a request may do: who it is, and which flows (`*` for all). */
export interface Principal {
  tokenName: string;
  /**
   * Unique per token (names need not be: tokens issued before names were checked may share one).
   * Derived from the stored hash, so it is stable and reveals nothing of the token. Idempotency keys
   * are scoped to it.
   */
  tokenId: string;
  /** Comma-separated flow paths, or `*`: a string, as API Gateway authorizer context values must be. */
  flows: string;
  /** `true` for a named reviewer token (its name is the actor of its actions), else `false`: a string too. */
  reviewer: 'true' | 'false';
}

/** Resolves `Authorization: Bearer <token>` to its principal; UnauthorizedError when missing, malformed or unknown. */
export async function authorize(deps: Pick<Deps, 'tokens'>, header: string | undefined): Promise<Principal> {
  const token = header ? BEARER.exec(header)?.[1] : undefined;
  if (!token || token.length > 512) throw new UnauthorizedError();
  const hash = hashToken(token);
  const record = await deps.tokens.findByHash(hash);
  if (!record || !sameHash(record.hash, hash)) throw new UnauthorizedError();
  return {
    tokenName: record.name,
    tokenId: tokenIdOf(record.hash),
    flows: record.flows ? record.flows.join(',') : '*',
    reviewer: record.reviewer === true ? 'true' : 'false',
  };
}

/** A token's unique id, from its stored hash (also the value of its API Gateway API key when usage plans are on). */
export const tokenIdOf = (hash: string): string => `tok_${hash.slice(0, 32)}`;
