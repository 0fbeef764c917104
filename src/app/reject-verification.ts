import { type Actor, reject } from '../domain/transitions';
import type { RequestInfo } from './deps';
import { type ActionDeps, actedBy, runAction } from './verification-actions';

/** Manual rejection: every document Rejected with a manual decision; VerificationFinished. */
export function rejectVerification(deps: ActionDeps, req: RequestInfo, flowPath: string, id: string, actor: Actor) {
  return runAction(deps, req, flowPath, id, (agg, _flow, ctx) => reject(agg, actedBy(req, actor), ctx), 'VerificationFinished');
}
