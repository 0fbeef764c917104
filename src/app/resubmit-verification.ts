import { type Actor, resubmit } from '../domain/transitions';
import type { RequestInfo } from './deps';
import { type ActionDeps, actedBy, runAction } from './verification-actions';

/** Back to Submitted with documents reset and extraction cleared; re-runs the pipeline. */
export function resubmitVerification(deps: ActionDeps, req: RequestInfo, flowPath: string, id: string, actor: Actor) {
  return runAction(deps, req, flowPath, id, (agg, flow, ctx) => resubmit(agg, flow, actedBy(req, actor), ctx));
}
