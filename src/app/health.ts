import { ServiceUnavailableError } from '../domain/errors';
import type { DependencyProbe } from '../ports/readiness';

export interface HealthReport {
  status: 'ok';
  dependencies: Record<string, 'ok'>;
}

export interface HealthCheckOptions {
  /** How long one answer is reused (default 5 s): a load balancer polling /health costs one read per period. */
  ttlMs?: number;
  /** A probe slower than this counts as unavailable (default 2 s), so /health itself never hangs. */
  timeoutMs?: number;
  now?: () => number;
}

function withTimeout(check: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('probe timed out')), ms);
  });
  return Promise.race([check, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Readiness of the backing services, as `/health` reports it: every probe runs (in parallel, each
 * bounded in time) and the answer is cached briefly and shared by concurrent callers. Resolves the
 * report when all answered; rejects with a ServiceUnavailableError naming each dependency's state.
 * The cache is deliberately shared across invocations, like an SDK client.
 */
export function createHealthCheck(probes: readonly DependencyProbe[], opts: HealthCheckOptions = {}): () => Promise<HealthReport> {
  const ttlMs = opts.ttlMs ?? 5000;
  const timeoutMs = opts.timeoutMs ?? 2000;
  const now = opts.now ?? Date.now;
  let cached: { until: number; result: Promise<Record<string, 'ok' | 'unavailable'>> } | undefined;
  const run = async () => {
    const states = await Promise.all(
      probes.map((p) =>
        withTimeout(p.check(), timeoutMs).then(
          () => 'ok' as const,
          () => 'unavailable' as const,
        ),
      ),
    );
    return Object.fromEntries(probes.map((p, i) => [p.name, states[i] ?? 'unavailable'])) as Record<string, 'ok' | 'unavailable'>;
  };
  return async () => {
    if (!cached || cached.until <= now()) cached = { until: now() + ttlMs, result: run() };
    const dependencies = await cached.result;
    if (Object.values(dependencies).some((s) => s !== 'ok')) throw new ServiceUnavailableError(dependencies);
    return { status: 'ok', dependencies: dependencies as Record<string, 'ok'> };
  };
}
