import { epochSeconds } from '../domain/time';
import type { Deps } from './deps';
import { loadVerification } from './load';

/** Soft delete: gone from Get and List at once, purged by the table's TTL after the retention period. */
export async function deleteVerification(deps: Pick<Deps, 'flows' | 'verifications' | 'clock' | 'deletedRetentionDays'>, flowPath: string, id: string): Promise<void> {
  const { aggregate } = await loadVerification(deps, flowPath, id);
  const now = deps.clock.now();
  const purgeAt = epochSeconds(now) + deps.deletedRetentionDays * 86_400;
  await deps.verifications.softDelete(aggregate.verification, now, purgeAt);
}
