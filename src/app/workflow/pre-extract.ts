import { DocumentStatus } from '../../domain/status';
import type { EventDetail } from '../../events/events';
import type { Deps } from '../deps';
import { requireFlow } from '../load';
import { extractionInput, extractionKey, extractorFor, measuredExtract } from './extraction';

/**
 * DocumentUploaded begins processing of that document: extract now and keep the result keyed by
 * the images' hashes, leaving the document Uploaded (so Update Document still works). The run that
 * Submit starts reuses it when nothing changed since.
 */
export async function preExtract(deps: Pick<Deps, 'verifications' | 'flows' | 'extractor' | 'extractors' | 'extractionCache' | 'metrics'>, detail: EventDetail): Promise<{ cached: boolean }> {
  const documentId = (detail.data.document as { id?: string } | undefined)?.id;
  const verificationId = detail.data.verification_id as string | undefined;
  if (!documentId || !verificationId) return { cached: false };
  const agg = await deps.verifications.get(verificationId);
  const doc = agg?.documents.find((d) => d.id === documentId);
  if (!agg || !doc || doc.status !== DocumentStatus.Uploaded) return { cached: false };
  const flow = await requireFlow(deps, doc.flow);
  const input = extractionInput(flow, agg, doc);
  const extractor = extractorFor(deps, flow);
  const key = extractionKey(extractor, input);
  if (!key || (await deps.extractionCache.get(verificationId, documentId, key))) return { cached: false };
  const images = [input.front.sha256 ?? '', ...(input.back ? [input.back.sha256 ?? ''] : [])];
  await deps.extractionCache.put(verificationId, documentId, key, await measuredExtract(deps, extractor, input), images);
  return { cached: true };
}
