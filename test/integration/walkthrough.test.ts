import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT, startNpmStart } from './npm-start';

/**
 * The README's curl walk-through, run as written: `npm start`'s entry point in its own process
 * (offline extractor, as a new user gets it), then the README's bash block with its first line
 * replaced by this run's address, token, a free port and a temporary samples folder.
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

beforeAll(async () => {
  samples = mkdtempSync(join(tmpdir(), 'idv-walk-samples-'));
  started = await startNpmStart();
}, 120_000);

afterAll(async () => {
  await started?.stop();
  rmSync(samples, { recursive: true, force: true });
});

describe('the README walk-through', () => {
  it('runs as written against npm start: Approved automatically, rejected by hand, both deliveries signed', async () => {
    const block = walkthroughBlock(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    const [first, ...rest] = block.split('\n');
    expect(first).toMatch(/^B=\S+ T=\S+ P=\d+ S=\S+/);
    const script = [`B=${started.url} T=${started.token} P=${await freePort()} S=${samples}`, ...rest].join('\n');
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 600_000, env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'ERROR' } });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
    const out = run.stdout;
    expect(out).toMatch(/verification ver_\w+/);
    expect(out).toMatch(/"status_label": "Approved"/);
    expect(out).toMatch(/^Rejected$/m);
    expect(readFileSync(join(samples, 'report.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    const deliveries = readFileSync(join(samples, 'deliveries.log'), 'utf8');
    expect(deliveries).toMatch(/VerificationFinished ver_\w+ Approved \(signature valid/);
    expect(deliveries).toMatch(/VerificationFinished ver_\w+ Rejected \(signature valid/);
    expect(deliveries).not.toMatch(/INVALID/);
  }, 660_000);
});
