import { DocumentStatus } from '../../domain/status';
import { isCurrentRun } from '../../domain/transitions';
import type { Deps } from '../deps';
import { requireFlow } from '../load';
import { extractionInput, extractorFor, extractWithCache } from './extraction';
import { registerFace } from './face-duplicates';
import { observeChallenge } from '../liveness-check';
import { type RunItem, saveForRun, type TaskResult } from './run';

/** Reads the document's images with the configured extractor (or reuses the extraction done at upload) and stores extracted_data (status Extracted). */
export async function extractDocument(deps: Pick<Deps, 'verifications' | 'documents' | 'flows' | 'clock' | 'extractor' | 'extractors' | 'extractionCache' | 'metrics' | 'faceIndex' | 'liveness' | 'livenessObserver'>, item: RunItem): Promise<TaskResult> {
  const agg = await deps.verifications.get(item.verificationId);
  const doc = agg?.documents.find((d) => d.id === item.documentId);
  if (!isCurrentRun(agg, item.run) || !doc) return { ...item, stale: true };
  // A retried task whose work was already saved: do not extract again.
  if (doc.status !== DocumentStatus.InProgress) return { ...item, stale: false };
  const flow = await requireFlow(deps, doc.flow);
  const extraction = await extractWithCache(deps, flow, item.verificationId, doc.id, extractionInput(flow, agg, doc));
  // Before the document is saved: its evaluation (which a save lets run) finds the descriptor.
  await registerFace(deps, flow, doc, extraction, deps.clock.now());
  // A selfie made from a liveness challenge: its frames judged, the verdict recorded for the evaluation.
  await observeChallenge(deps, flow, agg, doc);
  const next = {
    ...doc,
    status: DocumentStatus.Extracted,
    extractedData: extraction.data,
    extractionConfidence: extraction.confidence,
    extractionInfo: { extractor: extractorFor(deps, flow).name, readings: extraction.readings ?? [] },
    updatedAt: deps.clock.now(),
    version: doc.version + 1,
  };
  const saved = await saveForRun(deps, doc, next, item.run);
  return { ...item, stale: !saved };
}
