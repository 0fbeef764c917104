import { UnauthorizedError } from '../domain/errors';
import type { Caller, RequestInfo } from './deps';

/** Who the calling token is: the console shows it, and a reviewer token's name is the actor of its actions. */
export async function getCaller(req: RequestInfo): Promise<Caller> {
  if (!req.caller) throw new UnauthorizedError();
  return req.caller;
}
