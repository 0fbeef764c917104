import { describeFlow } from '../domain/flow';
import type { Deps, RequestInfo } from './deps';
import { requireFlow } from './load';

/** Document types and countries configured for a flow (the endpoint the spec lists as missing). */
export async function getFlowConfiguration(deps: Pick<Deps, 'flows'>, flowPath: string) {
  return describeFlow(await requireFlow(deps, flowPath));
}

/** Every flow's path name, display name and required contexts; for a token limited to some flows, those flows only. */
export async function listFlows(deps: Pick<Deps, 'flows'>, req: RequestInfo) {
  const allowed = req.caller?.flows ?? '*';
  return (await deps.flows.list())
    .filter((f) => allowed === '*' || allowed.includes(f.path))
    .map((f) => ({ path: f.path, name: f.name, required_contexts: f.required_contexts }));
}
