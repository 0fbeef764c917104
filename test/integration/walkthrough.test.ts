import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docFiles, scratchCheckout, snippets, where } from '../unit/docs/markdown';
import { freePort, ROOT, startNpmStart } from './npm-start';

/**
 * The README's walk-through, run as written: `npm start`'s entry point in its own process (offline
 * extractor, as a new user gets it), then the README's bash block as a file would run it, given only
 * what the README tells the reader to give it (T, and here B, P and S for this run's address, a free
 * port and a temporary folder). Then the docs' snippets marked to run against npm start, against the
 * same one (test/unit/docs/markdown.ts lists the marks).
 */
let started: Awaited<ReturnType<typeof startNpmStart>>;
let samples: string;

/** The bash block that follows the walkthrough marker in README.md. */
export function walkthroughBlock(readme: string): string {
  const marker = readme.indexOf('<!-- walkthrough');
  if (marker < 0) throw new Error('README has no walkthrough marker');
  const block = /```bash\n([\s\S]*?)```/.exec(readme.slice(marker));
  if (!block) throw new Error('no bash block after the walkthrough marker');
  return block[1] as string;
}

function runBlock(block: string, vars: Record<string, string>) {
  return spawnSync('bash', ['-c', block], { cwd: ROOT, encoding: 'utf8', timeout: 600_000, env: { ...process.env, ...vars, POWERTOOLS_LOG_LEVEL: 'ERROR' } });
}

const block = walkthroughBlock(readFileSync(join(ROOT, 'README.md'), 'utf8'));

beforeAll(async () => {
  samples = mkdtempSync(join(tmpdir(), 'idv-walk-samples-'));
  started = await startNpmStart();
}, 120_000);

afterAll(async () => {
  await started?.stop();
  rmSync(samples, { recursive: true, force: true });
});

describe('the README walk-through', () => {
  it('stops at the first error: set -euo pipefail, and every request made with curl -f', () => {
    expect(block.split('\n')[0]).toBe('set -euo pipefail');
    const code = block
      .split('\n')
      .filter((line) => !line.trim().startsWith('#'))
      .join('\n');
    const curls = code.match(/\bcurl\b[^\n]*/g) ?? [];
    expect(curls.length).toBeGreaterThan(5);
    for (const call of curls) expect(call).toMatch(/^curl -fsS /);
  });

  it('fails loudly, with the status, when the service refuses it (a wrong token)', async () => {
    const run = runBlock(block, { B: started.url, T: 'idv_not-a-token', P: String(await freePort()), S: join(samples, 'refused') });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/error: 401/);
    expect(run.stdout).not.toMatch(/verification ver_/);
  }, 120_000);

  it('runs as written against npm start: Approved automatically, the report saved, rejected by hand, both deliveries signed', async () => {
    const run = runBlock(block, { B: started.url, T: started.token, P: String(await freePort()), S: samples });
    expect({ status: run.status, output: run.status === 0 ? '' : `${run.stdout}\n${run.stderr}` }).toEqual({ status: 0, output: '' });
    const out = run.stdout;
    expect(out).toMatch(/verification ver_\w+/);
    expect(out).toMatch(/^Submitted$/m);
    expect(out).toMatch(/"status_label": "Approved"/);
    expect(out).toMatch(/^Rejected$/m);
    expect(readFileSync(join(samples, 'report.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    expect(existsSync(join(samples, 'report.part'))).toBe(false);
    const deliveries = readFileSync(join(samples, 'deliveries.log'), 'utf8');
    expect(deliveries).toMatch(/VerificationFinished ver_\w+ Approved \(signature valid/);
    expect(deliveries).toMatch(/VerificationFinished ver_\w+ Rejected \(signature valid/);
    expect(deliveries).not.toMatch(/INVALID/);
  }, 660_000);
});

describe('the docs\' snippets that need a running service', () => {
  const marked = docFiles()
    .flatMap((f) => snippets(f))
    .filter((s) => s.mark.kind === 'run-against-service');
  let scratch: ReturnType<typeof scratchCheckout>;
  beforeAll(() => {
    scratch = scratchCheckout();
  });
  afterAll(() => scratch?.remove());

  it('there are some, in bash and in TypeScript', () => {
    expect(new Set(marked.map((s) => s.lang))).toEqual(new Set(['bash', 'ts']));
  });

  it.each(marked.map((s) => [where(s), s] as const))('%s runs as written', (_at, s) => {
    const env = { ...process.env, B: started.url, T: started.token, API_URL: started.url, API_TOKEN: started.token, POWERTOOLS_LOG_LEVEL: 'ERROR' };
    let run;
    if (s.lang === 'ts') {
      // Saved at the root as the docs say, and run with tsx as the reader would (CommonJS: no top-level await).
      writeFileSync(join(scratch.dir, 'try-client.ts'), s.code);
      run = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), ['try-client.ts'], { cwd: scratch.dir, encoding: 'utf8', timeout: 120_000, env });
      if (run.status === 0) expect(run.stdout).toMatch(/ver_\w+ http:\/\/127\.0\.0\.1:\d+\/v\//);
    } else {
      run = spawnSync('bash', ['-euo', 'pipefail', '-c', s.code], { cwd: scratch.dir, encoding: 'utf8', timeout: 120_000, env });
    }
    expect({ status: run.status, output: run.status === 0 ? '' : `${run.stdout}\n${run.stderr}` }).toEqual({ status: 0, output: '' });
  }, 150_000);
});

