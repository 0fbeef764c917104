import type { Deps } from './deps';
import { removeLivenessFrames } from './liveness';
import { hashToken, sessionToken } from './tokens';

/**
 * The scheduled purge: soft-deleted verifications past their retention (DELETED_RETENTION_DAYS)
 * lose their receipts, duplicate-index entries, face descriptor, liveness frames and images first, then every item of theirs.
 */
export async function purgeDeleted(deps: Pick<Deps, 'verifications' | 'clock' | 'sessionSecret' | 'blobs' | 'receipts' | 'documentIndex' | 'faceIndex' | 'liveness' | 'faceLivenessSessions'>, batch = 25): Promise<{ purged: number }> {
  let purged = 0;
  for (;;) {
    const ids = await deps.verifications.deletedDueBefore(deps.clock.now(), batch);
    for (const id of ids) {
      // Receipts first (they hold the extracted data): an interrupted purge keeps the verification item and comes back.
      await deps.receipts.removeAll(id);
      // Its duplicate-document index entries (ids and a keyed hash, but they say the verification showed that document).
      await deps.documentIndex.removeVerification(id);
      // The selfie's face descriptor (biometric data) next, while the verification item still names its flow.
      await deps.faceIndex.remove(id);
      // The liveness frames and Face Liveness images (faces) named on its challenges, while those items still exist.
      await removeLivenessFrames(deps, id);
      await deps.verifications.purge(id, hashToken(sessionToken(deps.sessionSecret, id)), (keys) => deps.blobs.deleteOrThrow(keys));
      purged++;
    }
    if (ids.length < batch) return { purged };
  }
}
