import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { RouteSpec, ServedFile } from '../http/routes';

/**
 * Files a function serves as they are (the widget's and the console's scripts and stylesheets, the
 * widget's texts, pdf.js), kept out of its bundle: each is read from disk on first use and kept for
 * the life of the process. Deployed, they sit in the asset's `files/` folder beside the bundle, where
 * lib/service-function.ts writes the route's `needs.files` (lib/served-files.ts); locally, in the
 * folder the local runtime wrote them to with the same writer (serveFilesFrom).
 */
let folder = join(__dirname, 'files');
const cache = new Map<string, string>();

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** The name a `files` entry is served under: its `#name` when generated, else its last path segment. */
export function servedName(entry: ServedFile): string {
  const hash = entry.indexOf('#');
  return hash >= 0 ? entry.slice(hash + 1) : entry.slice(entry.lastIndexOf('/') + 1);
}

/** The local runtime: the folder it wrote the files to (there is no asset folder beside the source). */
export function serveFilesFrom(dir: string): void {
  folder = dir;
  cache.clear();
}

/** A file's text by name; throws when it was not packaged (a route that serves it without declaring it). */
export function readServedFile(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(join(folder, name), 'utf8');
    cache.set(name, text);
  }
  return text;
}

/**
 * What a route serves under `name` from its own `needs.files`, with its Content-Type by extension;
 * undefined for any other name (own entries only: no path is built from a name the route does not list).
 */
export function servedFile(r: Pick<RouteSpec, 'needs'>, name: string): { contentType: string; body: string } | undefined {
  if (!(r.needs.files ?? []).some((entry) => servedName(entry) === name)) return undefined;
  const contentType = CONTENT_TYPES[extname(name)] ?? 'application/octet-stream';
  return { contentType, body: readServedFile(name) };
}
