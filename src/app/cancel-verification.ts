import { type Actor, cancel } from '../domain/transitions';
import type { RequestInfo } from './deps';
import { type ActionDeps, actedBy, runAction } from './verification-actions';

/** Cancel: terminal; every document Canceled; VerificationCanceled. */
export function cancelVerification(deps: ActionDeps, req: RequestInfo, flowPath: string, id: string, actor: Actor) {
  return runAction(deps, req, flowPath, id, (agg, _flow, ctx) => cancel(agg, actedBy(req, actor), ctx), 'VerificationCanceled');
}
