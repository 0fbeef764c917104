import { describeFlow } from '../domain/flow';
import type { Deps } from './deps';
import { requireFlow } from './load';

/** Document types and countries configured for a flow (the endpoint the spec lists as missing). */
export async function getFlowConfiguration(deps: Pick<Deps, 'flows'>, flowPath: string) {
  return describeFlow(await requireFlow(deps, flowPath));
}

/** Every flow's path name, display name and required contexts. */
export async function listFlows(deps: Pick<Deps, 'flows'>) {
  return (await deps.flows.list()).map((f) => ({ path: f.path, name: f.name, required_contexts: f.required_contexts }));
}
