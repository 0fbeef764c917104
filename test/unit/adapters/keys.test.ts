import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { indexes, keys, webhookKeys } from '../../../src/adapters/dynamodb/keys';

const ROOT = join(__dirname, '../../..');
/** The key module, and the table definition that builds the indexes from it. */
const KEY_MODULES = ['src/adapters/dynamodb/keys.ts', 'src/adapters/dynamodb/table-definition.ts'];

/** Every key value the key module builds, with sample arguments. */
function builtKeyValues(): string[] {
  const values: string[] = [];
  const collect = (built: unknown) => {
    if (typeof built === 'string') values.push(built);
    else if (built && typeof built === 'object') for (const v of Object.values(built)) if (typeof v === 'string') values.push(v);
  };
  for (const builder of [...Object.values(keys), ...Object.values(webhookKeys)]) {
    collect(typeof builder === 'function' ? (builder as (...args: string[]) => unknown)('x1', 'x2') : builder);
  }
  return values;
}

/**
 * The vocabulary of item addresses: prefixes (`VER#`, `COUNT#`…), whole constants (`VER`, `COUNT`,
 * `FLOWS`…) and index names and attributes (`GSI1`, `GSI1PK`…).
 */
function vocabulary() {
  const prefixes = new Set<string>();
  const constants = new Set<string>();
  for (const value of builtKeyValues()) {
    const hash = value.indexOf('#');
    if (hash > 0) prefixes.add(value.slice(0, hash + 1));
    else if (/^[A-Z]{2,}$/.test(value)) constants.add(value);
  }
  return { prefixes, constants };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The string literals and template texts of a file, as TypeScript parses it (comments are not code). */
function literals(text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true));
  return found;
}

/** The literals of `text` that address an item or name an index. */
function keyLiterals(text: string, vocab = vocabulary()): string[] {
  return literals(text).filter((s) => [...vocab.prefixes].some((p) => s.startsWith(p)) || vocab.constants.has(s) || /\bGSI\d/.test(s));
}

describe('item keys are written in one place', () => {
  it('derives the key vocabulary from the key module', () => {
    const { prefixes, constants } = vocabulary();
    expect([...prefixes]).toEqual(expect.arrayContaining(['VER#', 'DOC#', 'COUNT#', 'IDEM#', 'WHK#', 'DLV#']));
    expect([...constants]).toEqual(expect.arrayContaining(['VER', 'FLOWS', 'TOKENS', 'STARTED']));
    expect(Object.values(indexes).map((i) => i.name)).toEqual(['GSI1', 'GSI2', 'GSI3', 'GSI4']);
  });

  it('finds key literals in code and not in comments', () => {
    const sample = [
      "const a = item.PK === 'STARTED';",
      "const b = String(pk).slice('VER#'.length);",
      'const c = { IndexName: "GSI1" };',
      'const d = `GSI3PK = :pk`;',
      '/** A comment may say VER#<id> and `COUNT`. */',
      "// and 'GSI2' here",
      "const e = 'Verification not found';",
    ].join('\n');
    expect(keyLiterals(sample)).toEqual(['STARTED', 'VER#', 'GSI1', 'GSI3PK = :pk']);
  });

  it('has no key prefix, key constant or index name literal outside the key module', () => {
    const vocab = vocabulary();
    const found = ['src', 'functions']
      .flatMap((dir) => sourceFiles(dir))
      .filter((file) => !KEY_MODULES.includes(relative(ROOT, join(ROOT, file)).split('\\').join('/')))
      .flatMap((file) => keyLiterals(readFileSync(join(ROOT, file), 'utf8'), vocab).map((literal) => `${file}: ${literal}`));
    expect(found).toEqual([]);
  });
});
