/**
 * The soak's faults: DynamoDB Local killed (SIGKILL; the runtime's supervisor starts it again) or
 * frozen (SIGSTOP, then SIGCONT after 1 to 8 s) at seeded random moments, one at a time, each once
 * the service is healthy again. A frozen JVM is never left behind: `thawAll` is called on every way out.
 */
import type { Rng } from '../documents/identity';
import { sleep } from './http';

export interface FaultEvent {
  kind: 'kill' | 'freeze';
  pid: number;
  /** Milliseconds since the traffic started. */
  atMs: number;
  /** How long the process was stopped (freeze). */
  frozenMs?: number;
  /** Milliseconds from the fault until /health answered 200 again. */
  recoveredMs?: number;
}

export interface FaultOptions {
  url: string;
  rng: Rng;
  /** Date.now() after which no fault starts. */
  deadline: number;
  startedAt: number;
  pid: () => number | undefined;
  log: (line: string) => void;
}

const FREEZE_MIN_MS = 1000;
const FREEZE_MAX_MS = 8000;
/** The quiet time between faults, so that every fault meets traffic and a recovered service. */
const GAP_MIN_MS = 8000;
const GAP_MAX_MS = 38_000;
const KILL_SHARE = 0.4;

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(3000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Polls /health until it answers 200; false after `timeoutMs`. */
export async function waitHealthy(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await healthy(url)) return true;
    await sleep(300);
  }
  return false;
}

export class FaultInjector {
  readonly events: FaultEvent[] = [];
  private readonly frozen = new Set<number>();

  /** Resumes every process this injector stopped; safe to call any time, more than once, in an exit handler. */
  thawAll(): void {
    for (const pid of this.frozen) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Already gone.
      }
    }
    this.frozen.clear();
  }

  async run(o: FaultOptions): Promise<void> {
    const since = () => performance.now() - o.startedAt;
    for (;;) {
      const gap = GAP_MIN_MS + o.rng() * (GAP_MAX_MS - GAP_MIN_MS);
      const kill = o.rng() < KILL_SHARE;
      const frozenMs = Math.round(FREEZE_MIN_MS + o.rng() * (FREEZE_MAX_MS - FREEZE_MIN_MS));
      if (Date.now() + gap >= o.deadline) return;
      await sleep(gap);
      if (!(await waitHealthy(o.url, 120_000))) {
        o.log('fault skipped: the service is not healthy');
        continue;
      }
      const pid = o.pid();
      if (pid === undefined) continue;
      const t0 = performance.now();
      const event: FaultEvent = { kind: kill ? 'kill' : 'freeze', pid, atMs: Math.round(since()) };
      this.events.push(event);
      if (kill) {
        process.kill(pid, 'SIGKILL');
        o.log(`[${(event.atMs / 1000).toFixed(1)} s] kill DynamoDB Local (pid ${pid})`);
        // /health may answer from a cached probe for a moment: recovered means a new process that answers.
        const restartBy = Date.now() + 120_000;
        while ((o.pid() === pid || o.pid() === undefined) && Date.now() < restartBy) await sleep(200);
      } else {
        this.frozen.add(pid);
        process.kill(pid, 'SIGSTOP');
        o.log(`[${(event.atMs / 1000).toFixed(1)} s] freeze DynamoDB Local (pid ${pid}) for ${frozenMs} ms`);
        await sleep(frozenMs);
        this.thawAll();
        event.frozenMs = frozenMs;
      }
      const back = await waitHealthy(o.url, 120_000);
      if (back) event.recoveredMs = Math.round(performance.now() - t0);
      o.log(`[${(since() / 1000).toFixed(1)} s] ${back ? `healthy again after ${event.recoveredMs} ms` : 'still not healthy after 120 s'}`);
    }
  }
}
