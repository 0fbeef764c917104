/**
 * The speed part of the extraction bench (issue 31 item 5): every extraction's wall and CPU time, peak
 * RSS and per-stage times (stages.ts), summed per document kind; and the first document after a cold
 * start, each in a fresh process (cold.ts). Reported under `speed` in bench/extraction.json.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { OfflineExtractor } from '../../../src/adapters/offline/extractor';
import { PeakRss } from './memory';
import type { StageClock } from './stages';

const ROOT = resolve(__dirname, '..', '..', '..');

/** One extraction as measured. */
export interface Measured {
  key: string;
  context: string;
  expected: boolean;
  ms: number;
  cpuMs: number;
  peakMb: number;
  stages: Record<string, { ms: number; calls: number }>;
}

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number) : 0;
};

/** Wraps the extractor's extract so that each call is measured into `into` (calls are sequential in the sets measured; parallel applications share the process's CPU time). */
export function measure(extractor: OfflineExtractor, clock: StageClock, into: Measured[]): void {
  const extract = extractor.extract.bind(extractor);
  extractor.extract = async (input) => {
    clock.take();
    const peak = new PeakRss();
    peak.start();
    const cpu = process.cpuUsage();
    const t = performance.now();
    try {
      return await extract(input);
    } finally {
      const c = process.cpuUsage(cpu);
      into.push({ key: input.front.key, context: input.contextType, expected: input.expected !== null, ms: performance.now() - t, cpuMs: (c.user + c.system) / 1000, peakMb: peak.stop(), stages: clock.take() });
    }
  };
}

/** Per group (`kindOf`): documents, p50/p95/max wall, p95 CPU, peak RSS at most, and the stages' share of the time. */
export function speedSummary(measured: Measured[], kindOf: (m: Measured) => string | undefined): Record<string, unknown> {
  const groups = new Map<string, Measured[]>();
  for (const m of measured) {
    const kind = kindOf(m);
    if (kind) groups.set(kind, [...(groups.get(kind) ?? []), m]);
  }
  const rows: Record<string, unknown> = {};
  for (const [kind, ms] of [...groups].sort()) {
    const stages = new Map<string, number>();
    for (const m of ms) for (const [k, v] of Object.entries(m.stages)) stages.set(k, (stages.get(k) ?? 0) + v.ms);
    const total = ms.reduce((a, m) => a + m.ms, 0);
    rows[kind] = {
      documents: ms.length,
      p50_ms: Math.round(percentile(ms.map((m) => m.ms), 50)),
      p95_ms: Math.round(percentile(ms.map((m) => m.ms), 95)),
      max_ms: Math.round(Math.max(...ms.map((m) => m.ms))),
      p50_cpu_ms: Math.round(percentile(ms.map((m) => m.cpuMs), 50)),
      p95_cpu_ms: Math.round(percentile(ms.map((m) => m.cpuMs), 95)),
      peak_rss_mb_max: Math.max(...ms.map((m) => m.peakMb)),
      peak_rss_mb_p50: percentile(ms.map((m) => m.peakMb), 50),
      // Stages are inclusive (a stage holds the engine calls it makes): shares overlap and need not sum to 100.
      stage_share_pct: Object.fromEntries([...stages].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([k, v]) => [k, Math.round((1000 * v) / Math.max(1, total)) / 10])),
    };
  }
  return rows;
}

/** Specimens read first after a cold start (one a kind), each in its own fresh process. */
export const COLD_DOCUMENTS = ['passport-can-aman-scan', 'idcard-swe-specimen', 'dl-usa-ma-maria-illustration', 'poa-usa-bank-statement-dean', 'barcode-pdf417-zxing-2-01'];

/** Each document of `files` extracted first in a fresh process (cold.ts), engines loading included. */
export function coldStarts(files: string[] = COLD_DOCUMENTS): Record<string, unknown>[] {
  return files.map((file) => {
    const load = loadavg()[0];
    try {
      const out = execFileSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(__dirname, 'cold.ts'), file], { cwd: ROOT, encoding: 'utf8', timeout: 180_000, stdio: ['ignore', 'pipe', 'ignore'] });
      const row = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
      console.log(`cold start  ${String(row.file).padEnd(44)} first document ${row.ms} ms (cpu ${row.cpu_ms} ms, process up ${row.process_uptime_ms} ms, peak ${row.peak_rss_mb} MB, load ${load?.toFixed(2)})`);
      return { ...row, loadavg_1m: Math.round((load ?? 0) * 100) / 100 };
    } catch (error) {
      return { file, error: String(error).slice(0, 200) };
    }
  });
}
