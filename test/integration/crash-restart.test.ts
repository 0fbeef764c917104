import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Runtime } from '../../local/runtime';
import { b64, pdf, png } from '../fixtures/images';
import { client, defaultBody } from './harness';

const ROOT = resolve(__dirname, '..', '..');
const TOKEN = `idv_${'c'.repeat(40)}`;
/** The stated bound: after a restart on the same data, every verification is final within this many seconds of the API answering. */
const RESTART_BOUND_SECONDS = 30;
const FINAL = ['Approved', 'Rejected', 'Double Check'];

interface Service {
  child: ChildProcess;
  url: string;
  lines: string[];
}

/** `npm start` as a user runs it (tsx local/start.ts), in its own process group so that a kill takes DynamoDB Local with it. */
function start(dataDir: string): Promise<Service> {
  const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['local/start.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, EXTRACTOR: 'sandbox', API_TOKEN: TOKEN },
  });
  const lines: string[] = [];
  return new Promise((ok, fail) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        const url = /^\s+API\s+(http:\/\/\S+)/.exec(line)?.[1];
        if (url) ok({ child, url, lines });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    child.once('exit', (code) => fail(new Error(`the service exited (${code}) before it was ready:\n${lines.join('\n')}`)));
  });
}

/** kill -9 of the whole local service: the runtime and every process it started. */
function killAll(service: Service): Promise<void> {
  return new Promise((ok) => {
    if (service.child.exitCode !== null) return ok();
    service.child.once('exit', () => ok());
    process.kill(-(service.child.pid as number), 'SIGKILL');
  });
}

function stopGracefully(service: Service): Promise<void> {
  return new Promise((ok) => {
    if (service.child.exitCode !== null) return ok();
    const timer = setTimeout(() => process.kill(-(service.child.pid as number), 'SIGKILL'), 20_000);
    service.child.once('exit', () => {
      clearTimeout(timer);
      ok();
    });
    process.kill(service.child.pid as number, 'SIGTERM');
  });
}

const apiOf = (service: Service) => client({ url: service.url, token: TOKEN } as Runtime);
const passport = { person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' }, document: { number: 'P123', country_code: 'GBR', expiration_date: '2031-01-01', type: 'P' } };
const bill = { person: { full_name: 'ADA LOVELACE' }, address: { full: '1 Main St, Austin TX 78701', country: 'USA' } };

describe('kill -9 of the local service while runs are in flight, then a restart on the same data', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-crash-'));
  const services: Service[] = [];
  afterAll(async () => {
    for (const s of services) await killAll(s).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`brings every verification to a final status within ${RESTART_BOUND_SECONDS} s of the restart`, async () => {
    const first = await start(dataDir);
    services.push(first);
    const api = apiOf(first);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const v = (await api('POST', '/api/v1/default/verifications', defaultBody())).body.data.id as string;
      expect((await api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(8, 8, i, passport)) } })).status).toBe(201);
      expect((await api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(pdf(bill)) } })).status).toBe(201);
      ids.push(v);
    }
    // Every Submit answers 200 (committed), then the whole service dies at once, runs in flight.
    const submits = await Promise.all(ids.map((v) => api('PUT', `/api/v1/default/verifications/${v}/submit`)));
    expect(submits.map((r) => r.status)).toEqual(ids.map(() => 200));
    await killAll(first);

    const second = await start(dataDir);
    services.push(second);
    const restartedAt = Date.now();
    const again = apiOf(second);
    const statuses = async () => Promise.all(ids.map(async (v) => (await again('GET', `/api/v1/default/verifications/${v}`)).body.data));
    let got = await statuses();
    while (got.some((v) => !FINAL.includes(v.status_label)) && Date.now() - restartedAt < RESTART_BOUND_SECONDS * 1000) {
      await new Promise((r) => setTimeout(r, 250));
      got = await statuses();
    }
    const seconds = (Date.now() - restartedAt) / 1000;
    // The sweeper reports what it resumed: the crash did leave runs behind (the test is not vacuous).
    const resumed = Number(/run sweeper: (\d+) run\(s\) resumed/.exec(second.lines.join('\n'))?.[1] ?? 0);
    console.log(`crash-restart: ${resumed} of ${ids.length} runs resumed; all final ${seconds.toFixed(1)} s after the restart`);
    expect(got.map((v) => [v.id, v.status_label])).toEqual(ids.map((id) => [id, expect.stringMatching(/^(Approved|Rejected|Double Check)$/)]));
    expect(got.flatMap((v) => v.documents.map((d: { status_label: string }) => d.status_label))).not.toContain('In progress');
    expect(resumed).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(RESTART_BOUND_SECONDS);
    await stopGracefully(second);
  }, 180_000);
});
