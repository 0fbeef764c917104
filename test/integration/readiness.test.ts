import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Runtime, startRuntime } from '../../local/runtime';
import { newApiToken } from '../../src/app/tokens';
import { freePort } from './npm-start';


let rt: Runtime | undefined;
let dataDir: string;
afterAll(async () => {
  await rt?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('readiness of npm start', () => {
  it('answers 503 (Retry-After) while starting, and once /health answers 200 a valid token is accepted on every route', async () => {
    const port = await freePort();
    dataDir = mkdtempSync(join(tmpdir(), 'idv-ready-'));
    const token = newApiToken();
    const starting = startRuntime({ host: '127.0.0.1', port, dataDir, inMemory: true, extractor: 'sandbox', apiToken: token, log: () => {} });
    const base = `http://127.0.0.1:${port}`;
    const statuses = new Set<number>();
    let afterHealth: number[] = [];
    for (let i = 0; i < 6000 && afterHealth.length === 0; i++) {
      try {
        const health = await fetch(`${base}/health`);
        statuses.add(health.status);
        if (health.status === 503 && health.headers.get('retry-after') === null) statuses.add(-1);
        if (health.status === 200) {
          // At once, before anything else can finish loading: the authenticated routes.
          afterHealth = await Promise.all(['/api/v1/flows', '/api/v1/default/verifications'].map(async (p) => (await fetch(`${base}${p}`, { headers: { Authorization: `Bearer ${token}` } })).status));
        }
      } catch {
        // not listening yet
      }
      if (afterHealth.length === 0) await new Promise((r) => setTimeout(r, 5));
    }
    rt = await starting;
    expect(afterHealth).toEqual([200, 200]);
    // Whatever /health answered before, it was 503 with Retry-After, never anything else.
    expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]);
  }, 120_000);
});
