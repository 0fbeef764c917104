import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildSync, transformSync } from 'esbuild';
import type { ServedFile } from '../src/http/routes';
import { servedName } from '../src/web/served-files';

const ROOT = join(__dirname, '..');

const generated = new Map<string, Record<string, string>>();

/**
 * The texts a module exports as `FILES`, generated from its TypeScript source: bundled on its own by
 * esbuild as a function is bundled (minified, Node 22, lib/service-function.ts) and evaluated. The
 * same bytes whoever asks (the stack, the local runtime, a test) and whatever compiles the caller:
 * a function's text embedded with `String(fn)` (the widget's quality gate) is esbuild's in all of them.
 * A module of BROWSER_BUNDLES is not evaluated: its one text is its browser bundle.
 */
export function generatedTexts(module: string): Record<string, string> {
  let texts = generated.get(module);
  const browser = BROWSER_BUNDLES[module];
  if (!texts && browser) {
    texts = { [browser]: browserBundle(module) };
    generated.set(module, texts);
  }
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

/**
 * Modules bundled for the browser rather than evaluated (their `#name` is the bundle): the widget's
 * Rekognition-mode capture, React and AWS's component inside, fetched by the page only in that mode.
 */
const BROWSER_BUNDLES: Record<string, string> = { 'src/web/face-liveness.ts': 'face-liveness.js' };

/**
 * `idv-face-liveness-assets` (src/web/face-liveness-modules.d.ts), written for the build: the
 * component's stylesheet (minified) and the tfjs WebAssembly binaries, base64, of the tfjs the
 * component itself imports (its own nested copy, whose JavaScript must match its binaries), so that
 * the page loads neither from a CDN.
 */
function faceLivenessAssets(dir: string): string {
  const fromComponent = createRequire(createRequire(join(ROOT, 'package.json')).resolve('@aws-amplify/ui-react-liveness'));
  const css = readFileSync(fromComponent.resolve('@aws-amplify/ui-react-liveness/styles.css'), 'utf8');
  const wasmDir = join(dirname(fromComponent.resolve('@tensorflow/tfjs-backend-wasm')), '..');
  const wasm = (name: string) => JSON.stringify(readFileSync(join(wasmDir, 'dist', name)).toString('base64'));
  const styles = JSON.stringify(transformSync(css, { loader: 'css', minify: true }).code);
  const file = join(dir, 'face-liveness-assets.js');
  writeFileSync(file, `export const STYLES = ${styles};\nexport const WASM_PLAIN = ${wasm('tfjs-backend-wasm.wasm')};\nexport const WASM_SIMD = ${wasm('tfjs-backend-wasm-simd.wasm')};\n`);
  return file;
}

/**
 * A browser bundle of `module`: minified, one script (no module loader on the page), production React.
 * Building it takes seconds, so it is kept in the system's temporary folder under a hash of what it
 * is built from (its sources beside it, this file, the lockfile): every local runtime a test starts
 * writes the served files, and would otherwise build it again.
 */
function browserBundle(module: string): string {
  const hash = createHash('sha256');
  const folder = dirname(join(ROOT, module));
  const sources = readdirSync(folder).filter((f) => f.startsWith('face-liveness')).sort();
  for (const file of [...sources.map((f) => join(folder, f)), __filename, join(ROOT, 'package-lock.json')]) hash.update(file).update(readFileSync(file));
  const cached = join(tmpdir(), `idv-browser-bundle-${hash.digest('hex').slice(0, 32)}.js`);
  if (existsSync(cached)) return readFileSync(cached, 'utf8');
  const text = buildBrowserBundle(module);
  // Written whole under another name, then renamed: a parallel reader never sees half a bundle.
  const partial = `${cached}.${process.pid}`;
  writeFileSync(partial, text);
  renameSync(partial, cached);
  return text;
}

function buildBrowserBundle(module: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'idv-browser-bundle-'));
  try {
    const result = buildSync({
      entryPoints: [join(ROOT, module)],
      bundle: true,
      write: false,
      minify: true,
      platform: 'browser',
      format: 'iife',
      target: ['es2020'],
      define: { 'process.env.NODE_ENV': '"production"' },
      legalComments: 'none',
      alias: { 'idv-face-liveness-assets': faceLivenessAssets(dir) },
      logLevel: 'error',
    });
    return result.outputFiles[0]?.text ?? '';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
