import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function imports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);
}

const rel = (f: string) => relative(ROOT, f);

describe('layering: dependencies point inward', () => {
  it('keeps src/domain free of I/O, SDKs and outer layers', () => {
    for (const f of files(join(ROOT, 'src/domain'))) {
      for (const i of imports(f)) {
        expect([rel(f), i]).not.toEqual([rel(f), expect.stringMatching(/^(@aws-sdk|node:(fs|http|net)|\.\.\/(app|adapters|http|ports)|aws-lambda)/)]);
      }
    }
  });

  it('keeps src/app and src/ports away from adapters and SDK clients', () => {
    for (const dir of ['src/app', 'src/ports']) {
      for (const f of files(join(ROOT, dir))) {
        for (const i of imports(f)) expect([rel(f), i]).not.toEqual([rel(f), expect.stringMatching(/^(@aws-sdk|\.\.\/adapters|\.\.\/container|\.\.\/http)/)]);
      }
    }
  });

  it('imports adapters only from the composition root (and the local runtime)', () => {
    const allowed = new Set(['src/container.ts', 'src/clients.ts']);
    for (const f of [...files(join(ROOT, 'src')), ...files(join(ROOT, 'functions'))]) {
      if (rel(f).startsWith('src/adapters/') || allowed.has(rel(f))) continue;
      for (const i of imports(f)) expect([rel(f), i]).not.toEqual([rel(f), expect.stringMatching(/adapters\//)]);
    }
  });

  it('reads process.env only in config, container, logger and clients', () => {
    // clients.ts and container.ts read only the bundler's substitutions (bundleDefines) beyond config.
    const allowed = new Set(['src/config.ts', 'src/container.ts', 'src/logger.ts', 'src/clients.ts']);
    for (const f of files(join(ROOT, 'src'))) {
      if (allowed.has(rel(f))) continue;
      expect([rel(f), readFileSync(f, 'utf8').includes('process.env')]).toEqual([rel(f), false]);
    }
  });

  it('keeps Lambda entry points thin', () => {
    for (const f of files(join(ROOT, 'functions'))) {
      const lines = readFileSync(f, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
      expect([rel(f), lines <= 40]).toEqual([rel(f), true]);
    }
  });
});
