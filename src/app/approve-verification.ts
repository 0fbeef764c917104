import { type Actor, approve } from '../domain/transitions';
import type { RequestInfo } from './deps';
import { type ActionDeps, actedBy, runAction } from './verification-actions';

/** Manual approval: every document Approved with a manual decision; VerificationFinished. */
export function approveVerification(deps: ActionDeps, req: RequestInfo, flowPath: string, id: string, actor: Actor) {
  return runAction(deps, req, flowPath, id, (agg, _flow, ctx) => approve(agg, actedBy(req, actor), ctx), 'VerificationFinished');
}
