import { ConflictError, InvalidStateError } from '../domain/errors';
import { expire } from '../domain/transitions';
import type { Deps } from './deps';
import { changeContext } from './change-context';

/**
 * The scheduled expiry job: every verification still Started past its flow's `expire_after_days`
 * moves to Expired with a `system` history entry. A verification that moved on meanwhile is skipped.
 */
export async function expireVerifications(deps: Pick<Deps, 'verifications' | 'clock' | 'ids'>, batch = 100): Promise<{ expired: number }> {
  let expired = 0;
  for (;;) {
    const ids = await deps.verifications.startedExpiredBefore(deps.clock.now(), batch);
    let progressed = false;
    for (const id of ids) {
      const agg = await deps.verifications.get(id);
      if (!agg) continue;
      try {
        await deps.verifications.save(expire(agg, changeContext(deps)));
        expired++;
        progressed = true;
      } catch (error) {
        if (!(error instanceof ConflictError) && !(error instanceof InvalidStateError)) throw error;
      }
    }
    if (ids.length < batch || !progressed) return { expired };
  }
}
