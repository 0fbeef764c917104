/**
 * npm run bench:bombs — the hostile files of issue 11, each against the local runtime in its own
 * process: peak RSS (the OS's high-water mark, so each bomb runs in a fresh child) and the longest
 * event-loop stall of the API process for upload, Download PDF and extraction.
 *
 * Upload goes through HTTP. When the upload is refused, Download PDF and extraction still run on the
 * bomb as if it had been stored before the door checked it (written straight to the bucket), so that
 * those bounds are measured too. Run it on an older commit for the "before" figures.
 */
import './log-level';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startRuntime } from '../../local/runtime';
import { SandboxExtractor } from '../../src/adapters/sandbox/extractor';
import { getDeps } from '../../src/container';
import { defaultBody } from '../../test/integration/harness';
import { bigFlatPng, headerOnlyPng, pdfInflateBomb, pdfJunk, pngZtxtBomb } from '../../test/fixtures/hostile-files';

const BOMBS: Record<string, { context: 'PHOTO_ID' | 'PROOF_OF_ADDRESS'; build: () => Promise<Buffer> | Buffer }> = {
  'pdf-inflate-1GB': { context: 'PROOF_OF_ADDRESS', build: () => pdfInflateBomb(1024 * 1024 * 1024) },
  'png-ztxt-300MB': { context: 'PHOTO_ID', build: () => pngZtxtBomb(300 * 1024 * 1024) },
  'png-40MP': { context: 'PHOTO_ID', build: () => bigFlatPng(8000, 5000) },
  'png-header-only': { context: 'PHOTO_ID', build: () => headerOnlyPng() },
  'pdf-junk': { context: 'PROOF_OF_ADDRESS', build: () => pdfJunk() },
};

/** Peak RSS so far, in MB (ru_maxrss is in KB on Linux). */
const peakRss = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function measure<T>(run: () => Promise<T>): Promise<{ result: T | string; peakRssMb: number; stallMs: number; ms: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const start = performance.now();
  let result: T | string;
  try {
    result = await run();
  } catch (error) {
    result = `threw ${(error as Error).name}`;
  }
  const ms = Math.round(performance.now() - start);
  h.disable();
  return { result, peakRssMb: peakRss(), stallMs: Math.round(h.max / 1e6), ms };
}

async function one(name: string): Promise<void> {
  const bomb = BOMBS[name];
  if (!bomb) throw new Error(`unknown bomb ${name}`);
  const file = await bomb.build();
  global.gc?.();
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bombs-'));
  const runtime = await startRuntime({ host: '127.0.0.1', port: 0, dataDir, inMemory: true, extractor: 'sandbox', log: () => {} });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${runtime.url}${path}`, { method, headers: { Authorization: `Bearer ${runtime.token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { data?: { id: string; [k: string]: unknown }; message?: string } };
  };
  try {
    const v = (await api('POST', '/api/v1/default/verifications', defaultBody())).body.data!.id;
    const baseline = peakRss();
    const document = { context_type: bomb.context, type: bomb.context === 'PHOTO_ID' ? 1 : 4, country: bomb.context === 'PHOTO_ID' ? 'FRA' : 'USA' };
    const upload = await measure(async () => {
      const res = await api('POST', '/api/v1/default/documents', { verification: v, document: { ...document, front_side_data: file.toString('base64') } });
      return res.status;
    });
    // Download and extraction always meet the bomb: a benign upload, then its object overwritten.
    const { png, pdf } = await import('../../test/fixtures/images');
    const v2 = (await api('POST', '/api/v1/default/verifications', defaultBody())).body.data!.id;
    const benign = bomb.context === 'PHOTO_ID' ? png(8, 8) : pdf();
    const created = await api('POST', '/api/v1/default/documents', { verification: v2, document: { ...document, front_side_data: benign.toString('base64') } });
    const docId = created.body.data!.id;
    const deps = await getDeps(['documents', 'blobs']);
    const stored = (await deps.documents.get(docId))?.document;
    if (!stored) throw new Error('document not stored');
    await deps.blobs.put(stored.front.key, file, stored.front.contentType);
    await api('PUT', `/api/v1/default/verifications/${v2}/approve`, { comment: 'ok', email: 'reviewer@example.com' });
    const download = await measure(async () => (await api('GET', `/api/v1/default/documents/${docId}/pdf`)).status);
    const downloadWarm = await measure(async () => (await api('GET', `/api/v1/default/documents/${docId}/pdf`)).status);
    const extraction = await measure(async () => {
      const sandbox = new SandboxExtractor(deps.blobs);
      await sandbox.extract({ front: stored.front, back: null, contextType: bomb.context } as never);
      if (bomb.context !== 'PROOF_OF_ADDRESS') return 'sandbox';
      const { pdfText } = await import('../../src/adapters/offline/engines');
      const lines = await pdfText(file);
      return `sandbox + pdf text (${lines.length} lines)`;
    });
    process.stdout.write(
      `${JSON.stringify({ bomb: name, fileKB: Math.round(file.length / 1024), baselineRssMb: baseline, upload, download, downloadWarm, extraction })}\n`,
    );
  } finally {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function main(): void {
  const arg = process.argv.indexOf('--one');
  if (arg > 0) {
    void one(process.argv[arg + 1] ?? '').then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${(error as Error).stack}\n`);
        process.exit(1);
      },
    );
    return;
  }
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const rows: string[] = [];
  for (const name of only.length ? only : Object.keys(BOMBS)) {
    let line: string;
    try {
      line = execFileSync(process.execPath, [...process.execArgv, __filename, '--one', name], { encoding: 'utf8', maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop() ?? '';
    } catch (error) {
      line = JSON.stringify({ bomb: name, crashed: (error as { status?: number }).status ?? 'signal' });
    }
    rows.push(line);
    process.stdout.write(`${line}\n`);
  }
  process.stdout.write('\nbomb              file KB  phase        result  peak RSS MB  max stall ms  time ms\n');
  for (const row of rows) {
    const r = JSON.parse(row) as Record<string, unknown>;
    if (r.crashed !== undefined) {
      process.stdout.write(`${String(r.bomb).padEnd(18)} crashed (${String(r.crashed)})\n`);
      continue;
    }
    for (const phase of ['upload', 'download', 'downloadWarm', 'extraction'] as const) {
      const p = r[phase] as { result: unknown; peakRssMb: number; stallMs: number; ms: number };
      process.stdout.write(
        `${String(r.bomb).padEnd(18)}${String(r.fileKB).padStart(7)}  ${phase.padEnd(12)} ${String(p.result).slice(0, 30).padEnd(7)} ${String(p.peakRssMb).padStart(11)} ${String(p.stallMs).padStart(13)} ${String(p.ms).padStart(8)}\n`,
      );
    }
  }
}

main();
