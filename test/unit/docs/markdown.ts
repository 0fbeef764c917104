import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** The repository's root. */
export const ROOT = join(__dirname, '..', '..', '..');

/** README.md and every Markdown file under docs/, as paths relative to the root. */
export function docFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []));
  return ['README.md', ...walk('docs')];
}

/**
 * What a snippet's comment (`<!-- snippet: … -->` on the line before its fence) asks of the tests:
 * - `run`: run as written in a scratch checkout (bash);
 * - `run against npm start …`: run by test/integration/walkthrough.test.ts against its npm start
 *   (bash with B and T; TypeScript with API_URL and API_TOKEN);
 * - `exercised: <name> …`: test/integration/docs-snippets.test.ts calls it (the exercise of that name);
 * - `not run: <why>`: not run, for the reason given;
 * - `parsed as JSON …` / `type-checked …`: what every JSON and TypeScript snippet gets anyway.
 * The README's walk-through has its own marker (`<!-- walkthrough … -->`).
 */
export type SnippetMark =
  | { kind: 'none' }
  | { kind: 'walkthrough' }
  | { kind: 'run' }
  | { kind: 'run-against-service' }
  | { kind: 'exercised'; name: string }
  | { kind: 'not-run'; reason: string }
  | { kind: 'parsed' }
  | { kind: 'type-checked' }
  | { kind: 'unknown'; text: string };

export interface Snippet {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  mark: SnippetMark;
}

function markOf(comment: string | undefined): SnippetMark {
  if (comment === undefined) return { kind: 'none' };
  if (/^<!-- walkthrough\b/.test(comment)) return { kind: 'walkthrough' };
  const m = /^<!-- snippet: (.*?) -->$/.exec(comment);
  if (!m) return { kind: 'none' };
  const text = (m[1] as string).trim();
  if (text === 'run') return { kind: 'run' };
  if (text.startsWith('run against npm start')) return { kind: 'run-against-service' };
  const exercised = /^exercised: (\w+)/.exec(text);
  if (exercised) return { kind: 'exercised', name: exercised[1] as string };
  const notRun = /^not run: (.*)$/.exec(text);
  if (notRun) return { kind: 'not-run', reason: (notRun[1] as string).trim() };
  if (text.startsWith('parsed as JSON')) return { kind: 'parsed' };
  if (text.startsWith('type-checked')) return { kind: 'type-checked' };
  return { kind: 'unknown', text };
}

/** Every fenced code block of a Markdown file, with the comment that stands right before it. */
export function snippets(file: string, text = readFileSync(join(ROOT, file), 'utf8')): Snippet[] {
  const lines = text.split('\n');
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] as string); i++) body.push(lines[i] as string);
    let before = start - 1;
    while (before >= 0 && (lines[before] as string).trim() === '') before--;
    const previous = before >= 0 ? (lines[before] as string).trim() : undefined;
    found.push({ file, line: start + 1, lang: open[1] as string, code: `${body.join('\n')}\n`, mark: markOf(previous?.startsWith('<!--') ? previous : undefined) });
  }
  return found;
}

/** The text outside code fences. */
function outsideFences(text: string): string {
  return text.replace(/^```[\s\S]*?^```\s*$/gm, '');
}

/** The text outside code fences and inline code, where links live. */
function prose(text: string): string {
  return outsideFences(text).replace(/`[^`\n]*`/g, '');
}

/** Every link target of a Markdown file: `[text](target)`, `<img src>` and `<a href>`. */
export function links(text: string): string[] {
  const body = prose(text);
  const markdown = [...body.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] as string);
  const html = [...body.matchAll(/<(?:img|a)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
  return [...markdown, ...html];
}

/** The anchors GitHub gives a Markdown file's headings (lower case, punctuation dropped, spaces to hyphens, repeats numbered). */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const m of outsideFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const heading = (m[1] as string).replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    result.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return result;
}

/** Never linked into a scratch checkout: the history, and what a run writes. */
const NOT_LINKED = new Set(['.git', '.data', 'samples', 'test-artifacts', 'cdk.out', 'coverage']);

/**
 * A folder that looks like the repository to npm, tsx and a reader's shell (a symbolic link to each
 * of its top-level entries) but keeps what a snippet writes (samples/, try-client.ts) out of the
 * working tree. `remove` deletes the folder, never what its links point to.
 */
export function scratchCheckout(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'idv-docs-'));
  for (const entry of readdirSync(ROOT)) if (!NOT_LINKED.has(entry)) symlinkSync(join(ROOT, entry), join(dir, entry));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `file:line`, for messages. */
export function where(s: Pick<Snippet, 'file' | 'line'>): string {
  return `${relative(ROOT, join(ROOT, s.file))}:${s.line}`;
}
