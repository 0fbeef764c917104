import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const nodeRequire = createRequire(__filename);

/** pdfjs-dist's folder (it does not export its package.json), found as Node would find the package. */
function pdfjsDir(): string {
  for (const base of nodeRequire.resolve.paths('pdfjs-dist') ?? []) {
    if (existsSync(join(base, 'pdfjs-dist', 'package.json'))) return join(base, 'pdfjs-dist');
  }
  throw new Error('pdfjs-dist is not installed');
}

/**
 * The two files of pdf.js's legacy build the console's viewer loads (the library and its worker, ES
 * modules). Deployed, they are copied into the function's asset (`files/`, the route's `needs.files`:
 * no npm install, no native code); locally they are read from the installed pdfjs-dist.
 */
const FILES: Record<string, string> = { 'pdf.min.mjs': 'pdf.min.mjs', 'pdf.worker.min.mjs': 'pdf.worker.min.mjs' };
const cache = new Map<string, string>();

/** The asset's text, or undefined when it is not one of them. */
export function pdfjsAsset(name: string): string | undefined {
  const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (file === undefined) return undefined;
  let text = cache.get(file);
  if (text === undefined) {
    const packaged = join(__dirname, 'files', file);
    text = readFileSync(existsSync(packaged) ? packaged : join(pdfjsDir(), 'legacy', 'build', file), 'utf8');
    cache.set(file, text);
  }
  return text;
}
