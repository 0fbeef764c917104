import { describeFlow } from '../domain/flow';
import type { Deps } from './deps';
import { requireFlow } from './load';

/** Document types and countries configured for a flow (the endpoint the spec lists as missing). */
export async function getFlowConfiguration(deps: Deps, flowPath: string) {
  return describeFlow(await requireFlow(deps, flowPath));
}
