import { createHealthCheck } from '../../../src/app/health';
import { ServiceUnavailableError } from '../../../src/domain/errors';
import { toErrorResponse } from '../../../src/http/errors';
import type { DependencyProbe } from '../../../src/ports/readiness';

function probe(name: string, behaviour: { up: boolean; hang?: boolean }) {
  const calls = { count: 0 };
  const p: DependencyProbe = {
    name,
    check: async () => {
      calls.count++;
      if (behaviour.hang) return new Promise<void>(() => {});
      if (!behaviour.up) throw new Error('ECONNREFUSED');
    },
  };
  return { p, calls, behaviour };
}

describe('health check', () => {
  it('reports every dependency ok', async () => {
    const db = probe('dynamodb', { up: true });
    await expect(createHealthCheck([db.p])()).resolves.toEqual({ status: 'ok', dependencies: { dynamodb: 'ok' } });
  });

  it('answers 503 naming the dependency that does not answer', async () => {
    const db = probe('dynamodb', { up: false });
    const error = await createHealthCheck([db.p])().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(toErrorResponse(error)).toEqual({
      statusCode: 503,
      body: { message: 'The service is busy; retry in a moment', dependencies: { dynamodb: 'unavailable' } },
      unexpected: false,
    });
  });

  it('counts a probe that hangs as unavailable after the timeout', async () => {
    const db = probe('dynamodb', { up: true, hang: true });
    await expect(createHealthCheck([db.p], { timeoutMs: 20 })()).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('reuses one answer for the cache period, then checks again', async () => {
    let now = 0;
    const db = probe('dynamodb', { up: true });
    const check = createHealthCheck([db.p], { ttlMs: 5000, now: () => now });
    await Promise.all([check(), check(), check()]);
    expect(db.calls.count).toBe(1);
    db.behaviour.up = false;
    now = 4999;
    await expect(check()).resolves.toMatchObject({ status: 'ok' });
    now = 5000;
    await expect(check()).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(db.calls.count).toBe(2);
  });
});
