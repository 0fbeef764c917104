// Prunes a synthesized Lambda asset's node_modules to a keep list (run by the bundling step of the
// offline extraction functions, lib/service-function.ts, with the build host's node):
//
//   node scripts/prune-asset.mjs <asset folder> <keep list .json>
//
// The keep list holds the files the engines were seen to load (scripts/offline-trace.ts) and folders
// kept whole (entries ending in "/"); every package.json stays too (module resolution reads them).
// Everything else under node_modules is deleted. A listed file that npm did not install (another
// version, another platform's binaries) fails the build here rather than the function at run time.
import { readdirSync, readFileSync, rmSync, statSync, existsSync, rmdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const [asset, listFile] = process.argv.slice(2);
if (!asset || !listFile) throw new Error('usage: node prune-asset.mjs <asset folder> <keep list .json>');
const entries = JSON.parse(readFileSync(listFile, 'utf8'));
const files = new Set(entries.filter((e) => !e.endsWith('/')));
const folders = entries.filter((e) => e.endsWith('/'));

const missing = [...files, ...folders].filter((f) => !existsSync(join(asset, f)));
if (missing.length > 0) {
  console.error(`prune-asset: ${missing.length} file(s) of the keep list were not installed, e.g. ${missing.slice(0, 5).join(', ')}.`);
  console.error('The engines need Linux x86_64 builds of the lockfile\'s versions: run scripts/offline-trace.ts again after changing them.');
  process.exit(1);
}

let removed = 0;
function prune(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    const rel = relative(asset, path);
    if (folders.some((f) => `${rel}/`.startsWith(f))) continue;
    if (e.isDirectory()) {
      prune(path);
      if (readdirSync(path).length === 0) rmdirSync(path);
    } else if (!(files.has(rel) || (e.name === 'package.json' && e.isFile()))) {
      rmSync(path, { force: true });
      removed++;
    }
  }
}
const root = join(asset, 'node_modules');
if (!statSync(root).isDirectory()) throw new Error(`${root} is not a folder`);
prune(root);
console.error(`prune-asset: ${removed} files removed from ${root}`);
