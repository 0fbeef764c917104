import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_REVIEWER } from '../../local/console-reviewer';
import { ROOT } from './npm-start';

/**
 * `npm start`'s banner tells the next step: the API token opens the console read-only, so the banner
 * prints a named reviewer token for the console beside it, one that the API accepts as a reviewer.
 */
interface Started {
  child: ChildProcess;
  banner: Record<string, string>;
}

/** tsx local/start.ts on 127.0.0.1 port 0 and `dataDir`; resolves with the banner's lines by label. */
function start(dataDir: string): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, EXTRACTOR: 'sandbox', POWERTOOLS_LOG_LEVEL: 'ERROR' };
  delete env.API_TOKEN;
  // Its own process group, so that stopping it can also end anything it started that outlived it (DynamoDB Local).
  const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'local', 'start.ts')], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`npm start exited with ${code}: ${out}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!/^\s+Extractor\s/m.test(out)) return;
      const banner = Object.fromEntries([...out.matchAll(/^ {2}(\w+) +(.+)$/gm)].map((m) => [m[1] as string, m[2] as string]));
      ok({ child, banner });
    });
  });
}

/** SIGTERM, as Ctrl-C's shutdown; then whatever of its process group is left. */
async function stop(s: Started | undefined): Promise<void> {
  if (!s) return;
  if (s.child.exitCode === null) {
    const exited = new Promise((ok) => s.child.once('exit', ok));
    s.child.kill('SIGTERM');
    await exited;
  }
  try {
    process.kill(-(s.child.pid as number), 'SIGKILL');
  } catch {
    // The group is gone already: nothing outlived it.
  }
}

async function me(url: string, token: string): Promise<{ status: number; data?: { name: string; reviewer: boolean } }> {
  const res = await fetch(`${url}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, ...(res.ok && { data: ((await res.json()) as { data: { name: string; reviewer: boolean } }).data }) };
}

const firstWord = (line: string | undefined): string => line?.split(/\s+/)[0] ?? '';

describe("npm start's banner", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-banner-'));
  let first: Started | undefined;
  let second: Started | undefined;
  afterAll(async () => {
    await stop(first);
    await stop(second);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints a reviewer token for the console beside the API token, and says which one signs in', async () => {
    first = await start(dataDir);
    const { banner } = first;
    const url = firstWord(banner.API);
    expect(banner.Console).toMatch(/\/console +\(sign in with the reviewer token below\)$/);
    const apiToken = firstWord(banner.Token);
    const reviewerToken = firstWord(banner.Reviewer);
    expect(reviewerToken).toMatch(/^idv_[\w-]{43}$/);
    expect(reviewerToken).not.toBe(apiToken);
    expect(await me(url, reviewerToken)).toEqual({ status: 200, data: expect.objectContaining({ name: LOCAL_REVIEWER, reviewer: true }) });
    expect(await me(url, apiToken)).toEqual({ status: 200, data: expect.objectContaining({ reviewer: false }) });
  }, 120_000);

  it('issues a new reviewer token at each start on the same data, and the previous one stops working', async () => {
    const before = firstWord(first?.banner.Reviewer);
    await stop(first);
    second = await start(dataDir);
    const url = firstWord(second.banner.API);
    const after = firstWord(second.banner.Reviewer);
    expect(after).not.toBe(before);
    expect(await me(url, after)).toMatchObject({ status: 200, data: { name: LOCAL_REVIEWER, reviewer: true } });
    expect((await me(url, before)).status).toBe(401);
  }, 120_000);
});
