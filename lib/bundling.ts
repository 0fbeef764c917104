import { bundleDefines, type BundlePart, loadDefines, type OptionalModule, partsOf } from '../src/clients';
import { entryPorts } from '../src/entries';
import { functionNeeds, handlerFiles, type Port } from '../src/http/routes';

/**
 * esbuild settings shared by the stack (lib/service-function.ts) and the bundle bench
 * (scripts/bench/run.ts), so that the bench measures what is deployed: the SDK's ES module builds
 * (tree-shaken; the CommonJS builds are not) and, per function, the parts its ports never reach
 * substituted away (src/clients.ts bundleDefines).
 */
/**
 * The ports of any function: a route's function from the route table, any other from ENTRY_PORTS
 * (here, not in src/entries.ts: the workflow tasks, jobs and the authorizer import that file and
 * must not bundle the route table with it).
 */
export function functionPorts(file: string): readonly Port[] {
  return handlerFiles().includes(file) ? functionNeeds(file).ports : entryPorts(file);
}

export const MAIN_FIELDS = ['module', 'main'];

/**
 * A function's esbuild settings; `loads` are the optional modules it loads (ServiceFunctionProps),
 * which also decide which extractors' code it holds (src/clients.ts EXTRACTOR_LOADS).
 */
export function functionBundling(file: string, loads: readonly OptionalModule[] = []): { define: Record<string, string>; mainFields: string[] } {
  const ports = functionPorts(file);
  return { define: { ...bundleDefines(ports), ...loadDefines(loads) }, mainFields: MAIN_FIELDS };
}

/** The SDK parts a function's bundle holds (the bench builds its floor from these). */
export const functionParts = (file: string): BundlePart[] => partsOf(functionPorts(file));
