import { submit } from '../domain/transitions';
import type { RequestInfo } from './deps';
import { type ActionDeps, runAction } from './verification-actions';

/** Started → Submitted once every required document is uploaded; starts the pipeline. */
export function submitVerification(deps: ActionDeps, req: RequestInfo, flowPath: string, id: string) {
  return runAction(deps, req, flowPath, id, (agg, flow, ctx) => submit(agg, flow, ctx));
}
