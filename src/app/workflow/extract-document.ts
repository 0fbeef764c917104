import { findTypeById } from '../../domain/flow';
import { DocumentStatus } from '../../domain/status';
import { isCurrentRun } from '../../domain/transitions';
import type { Deps } from '../deps';
import { requireFlow } from '../load';
import { type RunItem, saveForRun, type TaskResult } from './run';

/** Reads the document's images with the configured extractor and stores extracted_data (status Extracted). */
export async function extractDocument(deps: Deps, item: RunItem): Promise<TaskResult> {
  const agg = await deps.verifications.get(item.verificationId);
  const doc = agg?.documents.find((d) => d.id === item.documentId);
  if (!isCurrentRun(agg, item.run) || !doc) return { ...item, stale: true };
  const flow = await requireFlow(deps, doc.flow);
  const photoId = agg.documents.find((d) => d.contextType === 'PHOTO_ID');
  const extraction = await deps.extractor.extract({
    contextType: doc.contextType,
    documentType: { id: doc.typeId, name: findTypeById(flow, doc.typeId)?.name ?? '' },
    country: doc.country,
    front: doc.front,
    back: doc.back,
    compareWith: doc.contextType === 'SELFIE' && photoId ? photoId.front : null,
  });
  const next = {
    ...doc,
    status: DocumentStatus.Extracted,
    extractedData: extraction.data,
    extractionConfidence: extraction.confidence,
    updatedAt: deps.clock.now(),
    version: doc.version + 1,
  };
  const saved = await saveForRun(deps, doc, next, item.run);
  return { ...item, stale: !saved };
}
