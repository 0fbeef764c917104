/**
 * Soak test (issue 28): mixed API traffic against the local runtime for a bounded time while
 * DynamoDB Local is killed and frozen at random moments; afterwards, with DynamoDB healthy again,
 * checks that every 2xx answer's record exists, no Idempotency-Key made two resources, no answer
 * took longer than the budget, no 5xx but 503 was answered and every verification still takes an
 * action. Prints the figures; exits 1 when an invariant failed. Loopback only; not part of npm test.
 *
 * --workers is the number of mixed clients; one more acts on a single verification over and over.
 *
 *   npx tsx scripts/soak.ts [--minutes 10] [--seed N] [--budget-ms 25000] [--workers 3] [--json out.json] [--keep-data]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { random } from './documents/identity';
import { FaultInjector, waitHealthy } from './soak/faults';
import { check, markFaults, type RequestRecord } from './soak/invariants';
import { failed, formatReport } from './soak/report';
import { takeSnapshot } from './soak/snapshot';
import { type TrafficContext, Worker } from './soak/traffic';

const USAGE = 'Usage: npx tsx scripts/soak.ts [--minutes N] [--seed N] [--budget-ms N] [--workers N] [--json out.json] [--keep-data]';

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`--${name} must be a positive number\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string' },
      seed: { type: 'string' },
      'budget-ms': { type: 'string' },
      workers: { type: 'string' },
      json: { type: 'string' },
      'keep-data': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const minutes = positive('minutes', values.minutes, 10);
  const seed = Math.floor(positive('seed', values.seed, 1 + Math.floor(Math.random() * 1_000_000)));
  const budgetMs = positive('budget-ms', values['budget-ms'], 25_000);
  const workers = Math.floor(positive('workers', values.workers, 3));
  const progress = (line: string) => console.error(line);

  // As npm start: the level must be set before the service's modules load; the soak prints its own figures.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const { checkEngine } = await import('../local/engine');
  checkEngine();
  const { startRuntime, LOCAL_TABLE } = await import('../local/runtime');

  const dataDir = mkdtempSync(join(tmpdir(), 'idv-soak-'));
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', () => ok()));
  const hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  const faults = new FaultInjector();
  // Never leave a frozen JVM behind, whatever ends this process.
  process.on('exit', () => faults.thawAll());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      faults.thawAll();
      process.exit(130);
    });
  }

  progress(`soak: seed ${seed}, ${minutes} min, ${workers} mixed clients and 1 hot, budget ${budgetMs} ms, data ${dataDir}`);
  const runtime = await startRuntime({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    inMemory: false,
    extractor: 'sandbox',
    serviceRestartDelayMs: 500,
    webhookRetry: { baseSeconds: 1, maxAgeSeconds: 60 },
    // The supervisor's and the jobs' lines; not the access line of every request.
    log: (line) => /^[A-Z]+ \/\S* \d{3} /.test(line) || progress(`  runtime: ${line}`),
  });
  try {
    const records: RequestRecord[] = [];
    const startedAt = performance.now();
    const deadline = Date.now() + minutes * 60_000;
    const ctx: TrafficContext = {
      base: runtime.url,
      token: runtime.token,
      budgetMs,
      records,
      startedAt,
      seed,
      deadline,
      hookBase,
      known: { verifications: new Set(), documents: new Set() },
      webhooksTried: 0,
      lastPage: 1,
    };
    const ticker = setInterval(() => progress(`  ${((performance.now() - startedAt) / 1000).toFixed(0)} s: ${records.length} requests`), 30_000);
    ticker.unref();
    await Promise.all([
      ...Array.from({ length: workers }, (_, i) => new Worker(ctx, i + 1, 'mixed').run()),
      new Worker(ctx, 0, 'hot').run(),
      faults.run({ url: runtime.url, rng: random(seed ^ 0x5eed), deadline, startedAt, pid: () => runtime.dynamoPid, log: progress }),
    ]);
    clearInterval(ticker);
    const trafficSeconds = (performance.now() - startedAt) / 1000;
    faults.thawAll();
    markFaults(records, faults.events);

    progress('soak: traffic over; waiting for the service to be healthy and idle, then checking');
    if (!(await waitHealthy(runtime.url, 180_000))) progress('soak: /health is still not 200 after 180 s; checking anyway');
    await Promise.race([runtime.idle(), new Promise((r) => setTimeout(r, 120_000).unref())]);
    const problems: string[] = [];
    const deleted = new Set(records.flatMap((r) => (r.deletes ? [r.deletes] : [])));
    const reader = { base: runtime.url, token: runtime.token, table: { doc: runtime.doc, name: LOCAL_TABLE } };
    const snapshot = await takeSnapshot(reader, ctx.known, deleted, problems);
    const verdict = check(records, snapshot, budgetMs);
    const run = { seed, minutes, budgetMs, workers, trafficSeconds, faults: faults.events, snapshotProblems: problems };
    console.log(formatReport(verdict, run));
    if (values.json) {
      writeFileSync(values.json, `${JSON.stringify({ run, figures: verdict.figures, failures: verdict.failures, notes: verdict.notes, records }, null, 1)}\n`);
      progress(`soak: wrote ${values.json}`);
    }
    return failed(verdict) ? 1 : 0;
  } finally {
    faults.thawAll();
    await runtime.stop();
    await new Promise<void>((ok) => receiver.close(() => ok()));
    if (values['keep-data']) progress(`soak: data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`soak failed: ${(error as Error)?.stack ?? error}`);
    process.exit(2);
  },
);
