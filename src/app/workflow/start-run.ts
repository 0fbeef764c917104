import { DocumentStatus } from '../../domain/status';
import { isCurrentRun } from '../../domain/transitions';
import type { Deps } from '../deps';
import { type RunInput, type RunItem, saveForRun } from './run';

/** First task: checks the run is current, sets every document In progress and lists them for the Map state. */
export async function startRun(deps: Pick<Deps, 'verifications' | 'documents' | 'clock'>, input: RunInput): Promise<{ stale: boolean; items: RunItem[] }> {
  const agg = await deps.verifications.get(input.verificationId);
  if (!isCurrentRun(agg, input.run)) return { stale: true, items: [] };
  const now = deps.clock.now();
  for (const doc of agg.documents) {
    if (doc.status === DocumentStatus.InProgress) continue; // a retried StartRun: already done
    const next = { ...doc, status: DocumentStatus.InProgress, updatedAt: now, version: doc.version + 1 };
    if (!(await saveForRun(deps, doc, next, input.run))) return { stale: true, items: [] };
  }
  return { stale: false, items: agg.documents.map((d) => ({ ...input, documentId: d.id })) };
}
