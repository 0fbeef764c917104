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
  const define: Record<string, string> = { ...bundleDefines(ports), ...loadDefines(loads) };
  // Sanctions screening's snapshots are read from S3 (src/container.ts screeningFactories): the S3 client stays in.
  if (ports.some((p) => SCREENING_S3_PORTS.includes(p))) delete define['process.env.IDV_BUNDLE_S3'];
  // The matcher, the list parsers and their packages only where screening is named (guarded one by one in src/container.ts).
  for (const p of SCREENING_PORTS) if (!ports.includes(p)) define[`process.env.IDV_PORT_${p.toUpperCase()}`] = '"absent"';
  return { define, mainFields: MAIN_FIELDS };
}

/** Screening's ports, guarded like src/clients.ts GUARDED_PORTS (until that list carries them). */
const SCREENING_PORTS: readonly Port[] = ['screener', 'screenings', 'screeningSnapshots', 'sourceFetcher', 'snapshotParser', 'changesScreener'];

/** Ports whose adapters read the screening bucket (until src/clients.ts PORT_PARTS lists them under `s3`). */
const SCREENING_S3_PORTS: readonly Port[] = ['screener', 'screeningSnapshots'];

/** The SDK parts a function's bundle holds (the bench builds its floor from these). */
export const functionParts = (file: string): BundlePart[] => partsOf(functionPorts(file));
