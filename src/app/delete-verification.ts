import { epochSeconds } from '../domain/time';
import type { Deps } from './deps';
import { loadVerification, withConflictRetry } from './load';

/**
 * Soft delete: gone from Get and List at once, removed by the purge job after the retention period.
 * A concurrent change (the status counters move from the status read) re-reads and deletes again; a
 * concurrent delete then answers 404.
 */
export async function deleteVerification(deps: Pick<Deps, 'flows' | 'verifications' | 'clock' | 'deletedRetentionDays'>, flowPath: string, id: string): Promise<void> {
  await withConflictRetry(async () => {
    const { aggregate } = await loadVerification(deps, flowPath, id);
    const now = deps.clock.now();
    const purgeAt = epochSeconds(now) + deps.deletedRetentionDays * 86_400;
    await deps.verifications.softDelete(aggregate.verification, now, purgeAt);
  });
}
