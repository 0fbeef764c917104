/**
 * What the offline engines load at run time, measured rather than guessed: copies a synthesized
 * extraction asset outside the repository, bundles scripts/offline-probe.ts into it, runs every engine
 * (passport, US licence barcode, photographed bill, PDF bill, selfie against a passport portrait)
 * in plain Node 22 under strace, and lists the files opened under the asset's node_modules.
 *
 *   tsx scripts/offline-trace.ts <asset folder> [list file]
 *
 * The list written is the keep list the stack prunes the extraction functions' assets to
 * (lib/offline-engine-files.json, read by lib/service-function.ts); write it again after changing
 * engine package versions, then run test/cdk/synthesized-assets.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { MAIN_FIELDS } from '../lib/bundling';
import { OFFLINE_ENGINE_MODULES } from '../lib/service-function';
import { OPTIONAL_MODULES } from '../src/clients';
import { portraitOf, selfieOf } from './documents/faces';
import { type Condition, generateDocument, type Kind } from './documents/generate';
import { expectedFor, inputFor } from './documents/score';
import type { ExtractionInput } from '../src/ports/extractor';

const ROOT = resolve(__dirname, '..');
/** Node 22, the Lambda runtime's major (the devDependency `node`). */
export const NODE22 = join(ROOT, 'node_modules', '.bin', 'node');

/**
 * Folders kept whole although a run reads only some of their files: pdf.js reads the standard font
 * a PDF names (the generated bill uses Helvetica only; other PDFs name Times, Courier, Symbol…).
 */
const KEEP_WHOLE = ['node_modules/pdfjs-dist/standard_fonts/'];

export interface ProbeCase {
  name: string;
  input: ExtractionInput;
  objects: Record<string, string>;
}

/**
 * A copy of `asset` in a new folder under the system temp dir (outside the repository, so Node's
 * resolution cannot fall back to the repository's node_modules), with the probe bundled into it.
 */
export function copyWithProbe(asset: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'idv-offline-asset-'));
  cpSync(asset, dir, { recursive: true, verbatimSymlinks: true });
  buildSync({
    entryPoints: [join(ROOT, 'scripts', 'offline-probe.ts')],
    outfile: join(dir, 'probe.js'),
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    mainFields: MAIN_FIELDS,
    // As in the stack: the engines come from the asset's node_modules, the Textract clients and pdf-lib are left out.
    external: [...OFFLINE_ENGINE_MODULES, ...OPTIONAL_MODULES.filter((m) => m !== 'mrz')],
    logLevel: 'error',
  });
  return dir;
}

/** Generated documents written into `dir`, with their extraction inputs. */
export async function probeCases(dir: string, kinds: ('passport' | 'licence' | 'bill' | 'bill-pdf' | 'selfie')[]): Promise<{ cases: ProbeCase[]; truth: Record<string, Awaited<ReturnType<typeof generateDocument>>> }> {
  const cases: ProbeCase[] = [];
  const truth: Record<string, Awaited<ReturnType<typeof generateDocument>>> = {};
  const write = (name: string, bytes: Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  const add = async (name: string, kind: Kind, condition: Condition, seed: number) => {
    const doc = await generateDocument(kind, condition, seed);
    truth[name] = doc;
    const objects: Record<string, string> = { [`${name}/front`]: write(`${name}-front`, doc.front) };
    if (doc.back) objects[`${name}/back`] = write(`${name}-back`, doc.back);
    cases.push({ name, input: inputFor(doc, name, expectedFor(doc)), objects });
  };
  if (kinds.includes('passport')) await add('passport', 'passport', 'photographed', 11);
  if (kinds.includes('licence')) await add('licence', 'driver-license', 'photographed', 3);
  if (kinds.includes('bill')) await add('bill', 'utility-bill', 'photographed', 12);
  if (kinds.includes('bill-pdf')) await add('bill-pdf', 'utility-bill-pdf', 'clean', 5);
  if (kinds.includes('selfie')) {
    const passport = await generateDocument('passport', 'clean', 2, await portraitOf(2));
    const objects = { 'portrait/front': write('portrait-front', passport.front), 'selfie/front': write('selfie-front', await selfieOf(2)) };
    cases.push({
      name: 'selfie',
      input: { ...inputFor(passport, 'selfie', null), contextType: 'SELFIE', documentType: { id: 6, name: 'Selfie' }, compareWith: { key: 'portrait/front', contentType: 'image/png' } },
      objects,
    });
  }
  return { cases, truth };
}

/** The environment the probe runs with: no NODE_PATH, nothing that points back into the repository. */
export const probeEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), LANG: 'C.UTF-8' });

async function main(): Promise<void> {
  const [asset, listFile = join(ROOT, 'lib', 'offline-engine-files.json')] = process.argv.slice(2);
  if (!asset || !existsSync(join(asset, 'node_modules'))) throw new Error('usage: tsx scripts/offline-trace.ts <synthesized offline asset folder> [list file]');
  const dir = copyWithProbe(asset);
  try {
    const { cases } = await probeCases(dir, ['passport', 'licence', 'bill', 'bill-pdf', 'selfie']);
    writeFileSync(join(dir, 'cases.json'), JSON.stringify(cases));
    const trace = join(dir, 'strace.txt');
    // Every file syscall (opens, stats, links): a file Node's resolution only stats must stay too.
    const out = execFileSync('strace', ['-f', '-qq', '-e', 'trace=%file', '-o', trace, NODE22, 'probe.js', 'cases.json', '--warm'], { cwd: dir, env: probeEnv(), encoding: 'utf8', maxBuffer: 1 << 26 });
    for (const line of out.trim().split('\n')) {
      const r = JSON.parse(line) as { name: string; data: unknown };
      console.log(r.name, JSON.stringify(r.data).slice(0, 300));
    }
    // Any path a syscall names (threads interleave, so a call and its result may be on two lines); those that are files of the asset.
    const opened = new Set<string>();
    for (const line of readFileSync(trace, 'utf8').split('\n')) {
      for (const m of line.matchAll(/"([^"]+)"/g)) {
        const path = resolve(dir, m[1] ?? '');
        const rel = relative(dir, path);
        if (rel.startsWith('node_modules/') && existsSync(path) && statSync(path).isFile()) opened.add(rel);
      }
    }
    const files = [...KEEP_WHOLE, ...[...opened].filter((f) => !KEEP_WHOLE.some((k) => f.startsWith(k))).sort()];
    writeFileSync(listFile, `${JSON.stringify(files, null, 1)}\n`);
    console.log(`${files.length} entries (files opened under node_modules, folders kept whole); written to ${listFile}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
