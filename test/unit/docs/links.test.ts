import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { anchors, docFiles, links, ROOT } from './markdown';

/** What is wrong with one link of `file`, or undefined when it leads somewhere real inside the repository. */
function problem(file: string, target: string): string | undefined {
  if (/^https?:\/\//.test(target)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return `${target}: only http(s) links may leave the repository`;
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const resolved = path === '' ? join(ROOT, file) : join(ROOT, dirname(file), decodeURIComponent(path));
  const inside = relative(ROOT, resolved);
  if (inside.startsWith(`..${sep}`) || inside === '..') return `${target}: leaves the repository`;
  if (!existsSync(resolved)) return `${target}: no such file`;
  if (anchor !== undefined && resolved.endsWith('.md') && statSync(resolved).isFile() && !anchors(readFileSync(resolved, 'utf8')).has(anchor)) {
    return `${target}: no heading #${anchor} in ${inside}`;
  }
  return undefined;
}

describe('links in README.md and docs/', () => {
  const files = docFiles();

  it('finds the documentation', () => {
    expect(files).toContain('README.md');
    expect(files).toContain(join('docs', 'README.md'));
    expect(files.length).toBeGreaterThan(15);
  });

  it.each(files)('%s: every link leads to a file (and heading) of the repository, or is http(s)', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const problems = links(text)
      .map((target) => problem(file, target))
      .filter((p): p is string => p !== undefined);
    expect(problems).toEqual([]);
  });

  it.each(files)('%s: names no file beside the repository (../shared/…), which a clone does not have', (file) => {
    expect(readFileSync(join(ROOT, file), 'utf8').match(/\.\.\/shared\/[^\s)`'"]*/g) ?? []).toEqual([]);
  });

  it('tells a broken link, an anchor that is not there and a link out of the repository', () => {
    expect(problem('docs/README.md', '../../shared/spec/verifications-api.md')).toMatch(/leaves the repository/);
    expect(problem('README.md', '../shared/spec/verifications-api.md')).toMatch(/leaves the repository/);
    expect(problem('README.md', 'docs/nowhere.md')).toMatch(/no such file/);
    expect(problem('README.md', 'docs/README.md#no-such-heading')).toMatch(/no heading/);
    expect(problem('README.md', 'file:///etc/passwd')).toMatch(/only http/);
    expect(problem('README.md', 'docs/README.md#how-to-guides')).toBeUndefined();
    expect(problem('README.md', 'https://example.com/x')).toBeUndefined();
  });

  it('gives headings the anchors GitHub gives them', () => {
    expect([...anchors('# A `b` c\n## Node.js versions\n## 1. Subscribe\n## Test mode (sandbox)\n## Twice\n## Twice\n')]).toEqual([
      'a-b-c',
      'nodejs-versions',
      '1-subscribe',
      'test-mode-sandbox',
      'twice',
      'twice-1',
    ]);
  });
});
