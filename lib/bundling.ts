import { bundleDefines, type BundlePart, partsOf } from '../src/clients';
import { functionPorts } from '../src/entries';

/**
 * esbuild settings shared by the stack (lib/service-function.ts) and the bundle bench
 * (scripts/bench/run.ts), so that the bench measures what is deployed: the SDK's ES module builds
 * (tree-shaken; the CommonJS builds are not) and, per function, the parts its ports never reach
 * substituted away (src/clients.ts bundleDefines).
 */
export const MAIN_FIELDS = ['module', 'main'];

export function functionBundling(file: string): { define: Record<string, string>; mainFields: string[] } {
  return { define: bundleDefines(functionPorts(file)), mainFields: MAIN_FIELDS };
}

/** The SDK parts a function's bundle holds (the bench builds its floor from these). */
export const functionParts = (file: string): BundlePart[] => partsOf(functionPorts(file));
