import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A fresh `npm install` leaves package-lock.json as committed (CONTRIBUTING.md). npm writes into the
 * lockfile every optional dependency of every locked package, for every platform, when it resolves
 * them from scratch; a lockfile updated on one machine can lack other platforms' packages (native
 * bindings such as @napi-rs/canvas-* and @unrs/resolver-binding-*), and then each fresh clone's
 * install adds them back: hundreds of lines of churn. This holds the lockfile complete.
 */
const ROOT = join(__dirname, '..', '..');

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { lockfileVersion: number; packages: Record<string, LockEntry> };
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as LockEntry;

/** Where Node (and npm's tree) finds `dep` from the package at `from`: its own node_modules, then each parent's. */
function resolveFrom(from: string, dep: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${dep}`;
    if (lock.packages[candidate]) return candidate;
    if (!base) return undefined;
    base = base.slice(0, base.lastIndexOf('node_modules/')).replace(/\/$/, '');
  }
}

describe('package-lock.json', () => {
  it('is lockfile version 3 and locks exactly what package.json asks for', () => {
    expect(lock.lockfileVersion).toBe(3);
    const root = lock.packages[''];
    expect(root?.dependencies).toEqual(pkg.dependencies);
    expect(root?.devDependencies).toEqual(pkg.devDependencies);
  });

  it("holds every locked package's optional dependencies for every platform, at the exact versions asked for", () => {
    const problems: string[] = [];
    for (const [at, entry] of Object.entries(lock.packages)) {
      for (const [dep, range] of Object.entries(entry.optionalDependencies ?? {})) {
        const found = resolveFrom(at, dep);
        if (!found) problems.push(`${at || '(root)'} → ${dep}@${range}: missing`);
        else if (/^\d+\.\d+\.\d+$/.test(range) && lock.packages[found]?.version !== range) problems.push(`${at || '(root)'} → ${dep}@${range}: ${found} is ${lock.packages[found]?.version}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
