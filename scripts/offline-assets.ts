import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { ServiceFunction } from '../lib/service-function';
import { extractionFunctionProps } from '../lib/workflow';

/** The functions that carry the offline engines: the workflow's ExtractDocument and the PreExtract consumer. */
export const OFFLINE_FUNCTIONS = { ExtractDocument: 'workflow/extract-document', PreExtract: 'events/pre-extract' } as const;

export interface AssetSize {
  dir: string;
  bytes: number;
  files: number;
}

/**
 * Synthesizes, with bundling for real (esbuild, then npm ci of the engine packages and the prune),
 * the extraction functions as the stack builds them with `-c extractor=offline`, into `outdir`.
 * Returns each function's asset folder.
 */
export function synthOfflineAssets(outdir: string): Record<keyof typeof OFFLINE_FUNCTIONS, string> {
  const app = new App({ outdir });
  const stack = new Stack(app, 'OfflineAssets', { env: { account: '123456789012', region: 'eu-west-1' } });
  const plan = { extractor: 'offline', aws: false, offline: true } as const;
  const out = {} as Record<keyof typeof OFFLINE_FUNCTIONS, string>;
  const fns = Object.entries(OFFLINE_FUNCTIONS).map(([id, file]) => [id, new ServiceFunction(stack, id, { file, ...extractionFunctionProps(plan, {}) })] as const);
  const assembly = app.synth();
  const template = assembly.getStackByName(stack.stackName).template as { Resources: Record<string, { Properties?: { Code?: { S3Key?: string } } }> };
  for (const [id, fn] of fns) {
    // The function's code is the zip of the staged folder asset.<hash>.
    const key = template.Resources[stack.getLogicalId(fn.node.defaultChild as never)]?.Properties?.Code?.S3Key;
    if (!key) throw new Error(`no asset for ${id}`);
    out[id as keyof typeof OFFLINE_FUNCTIONS] = join(assembly.directory, `asset.${key.replace(/\.zip$/, '')}`);
  }
  return out;
}

/** Unzipped size and file count of a folder (what Lambda's 250 MB limit counts). */
export function folderSize(dir: string): AssetSize {
  let bytes = 0;
  let files = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        bytes += statSync(p).size;
        files++;
      }
    }
  };
  walk(dir);
  return { dir, bytes, files };
}

/** Size per top-level package of an asset's node_modules, largest first. */
export function packageSizes(dir: string): { name: string; bytes: number }[] {
  const root = join(dir, 'node_modules');
  const out: { name: string; bytes: number }[] = [];
  for (const e of readdirSync(root)) {
    if (e.startsWith('.')) continue;
    const names = e.startsWith('@') ? readdirSync(join(root, e)).map((n) => `${e}/${n}`) : [e];
    for (const name of names) out.push({ name, bytes: folderSize(join(root, name)).bytes });
  }
  return out.sort((a, b) => b.bytes - a.bytes);
}

if (require.main === module) {
  const outdir = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'idv-offline-assets-'));
  const started = Date.now();
  const assets = synthOfflineAssets(outdir);
  console.log(`synthesized in ${((Date.now() - started) / 1000).toFixed(0)} s into ${outdir}`);
  for (const [id, dir] of Object.entries(assets)) {
    const { bytes, files } = folderSize(dir);
    console.log(`${id}: ${(bytes / 1e6).toFixed(1)} MB unzipped, ${files} files (${dir})`);
    for (const p of packageSizes(dir).slice(0, 25)) console.log(`  ${(p.bytes / 1e6).toFixed(1).padStart(6)} MB  ${p.name}`);
  }
}
