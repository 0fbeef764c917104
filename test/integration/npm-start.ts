import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

export const ROOT = join(__dirname, '..', '..');

/**
 * `npm start`'s entry point in its own process, as a new user runs it (offline extractor, its
 * default: the engines load ES modules jest cannot), on 127.0.0.1 port 0 with a fresh data folder.
 * Resolves with the address and token it prints; `stop` ends it and removes the folder.
 */
export async function startNpmStart(): Promise<{ url: string; token: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-npm-start-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR' };
  delete env.EXTRACTOR;
  delete env.API_TOKEN;
  const server: ChildProcess = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'local', 'start.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const { url, token } = await new Promise<{ url: string; token: string }>((ok, fail) => {
    server.once('exit', (code) => fail(new Error(`npm start exited with ${code}: ${out}`)));
    server.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const api = /API\s+(http:\/\/\S+)/.exec(out);
      const tok = /Token\s+(\S+)/.exec(out);
      if (api && tok && /Extractor\s+offline/.test(out)) ok({ url: api[1] as string, token: tok[1] as string });
    });
  });
  return {
    url,
    token,
    stop: async () => {
      if (server.exitCode === null) {
        const exited = new Promise((ok) => server.once('exit', ok));
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A loopback port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

/**
 * `npm start` for one test file: started before its tests (2 minutes allowed: the engines load),
 * stopped after them. Read `url` and `token` inside the tests.
 */
export function useNpmStart(): { readonly url: string; readonly token: string } {
  let started: Awaited<ReturnType<typeof startNpmStart>> | undefined;
  beforeAll(async () => {
    started = await startNpmStart();
  }, 120_000);
  afterAll(async () => {
    await started?.stop();
  });
  const get = (): Awaited<ReturnType<typeof startNpmStart>> => {
    if (!started) throw new Error('npm start is not running: read url and token inside a test');
    return started;
  };
  return {
    get url() {
      return get().url;
    },
    get token() {
      return get().token;
    },
  };
}
