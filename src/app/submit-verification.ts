import { submit } from '../domain/transitions';
import type { Deps, RequestInfo } from './deps';
import { runAction } from './verification-actions';

/** Started → Submitted once every required document is uploaded; starts the pipeline. */
export function submitVerification(deps: Deps, req: RequestInfo, flowPath: string, id: string) {
  return runAction(deps, req, flowPath, id, (agg, flow, ctx) => submit(agg, flow, ctx));
}
