import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import type { ServedFile } from '../src/http/routes';
import { servedName } from '../src/web/served-files';

const ROOT = join(__dirname, '..');

const generated = new Map<string, Record<string, string>>();

/**
 * The texts a module exports as `FILES`, generated from its TypeScript source: bundled on its own by
 * esbuild as a function is bundled (minified, Node 22, lib/service-function.ts) and evaluated. The
 * same bytes whoever asks (the stack, the local runtime, a test) and whatever compiles the caller:
 * a function's text embedded with `String(fn)` (the widget's quality gate) is esbuild's in all of them.
 */
export function generatedTexts(module: string): Record<string, string> {
  let texts = generated.get(module);
  if (!texts) {
    const result = buildSync({ entryPoints: [join(ROOT, module)], bundle: true, write: false, minify: true, platform: 'node', target: 'node22', format: 'cjs', logLevel: 'error' });
    const loaded: { exports: { FILES?: Record<string, string> } } = { exports: {} };
    // Node's own modules only (the bundle holds every package): the country table inflates with node:zlib.
    new Function('module', 'exports', 'require', result.outputFiles[0]?.text ?? '')(loaded, loaded.exports, require);
    if (!loaded.exports.FILES) throw new Error(`${module} exports no FILES`);
    texts = loaded.exports.FILES;
    generated.set(module, texts);
  }
  return texts;
}

/** Writes `files` entries (src/http/routes.ts `Needs.files`) into `dir`, each under its served name. */
export function writeServedFiles(files: readonly ServedFile[], dir: string): void {
  mkdirSync(dir, { recursive: true });
  const names = new Set<string>();
  for (const entry of files) {
    const name = servedName(entry);
    if (names.has(name)) throw new Error(`two files are served as ${name}`);
    names.add(name);
    const [path = '', key] = entry.split('#');
    if (key === undefined) copyFileSync(join(ROOT, path), join(dir, name));
    else {
      const text = generatedTexts(path)[key];
      if (text === undefined) throw new Error(`${path} has no file ${key}`);
      writeFileSync(join(dir, name), text);
    }
  }
}

/** A folder holding `files`, written once per synth and removed when the process ends (the stack copies it into each asset). */
export function stageServedFiles(files: readonly ServedFile[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'idv-served-files-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeServedFiles(files, dir);
  return dir;
}
