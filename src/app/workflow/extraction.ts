import { createHash } from 'node:crypto';
import type { DocumentRecord, VerificationAggregate } from '../../domain/entities';
import { type Flow, findTypeById } from '../../domain/flow';
import type { Extraction, ExtractionInput, Extractor } from '../../ports/extractor';
import { METRIC } from '../../ports/metrics';
import type { Deps } from '../deps';

export function extractionInput(flow: Flow, agg: VerificationAggregate, doc: DocumentRecord): ExtractionInput {
  const photoId = agg.documents.find((d) => d.contextType === 'PHOTO_ID');
  return {
    contextType: doc.contextType,
    documentType: { id: doc.typeId, name: findTypeById(flow, doc.typeId)?.name ?? '' },
    country: doc.country,
    front: doc.front,
    back: doc.back,
    compareWith: doc.contextType === 'SELFIE' && photoId ? photoId.front : null,
    expected: agg.verification.expectedData,
  };
}

/**
 * What an extraction was computed from: image hashes, type, country, expected data and extractor. Undefined (not
 * cacheable) for a selfie, whose result also depends on another document, or without image hashes.
 */
export function extractionKey(extractor: Extractor, input: ExtractionInput): string | undefined {
  if (input.contextType === 'SELFIE' || !input.front.sha256 || (input.back && !input.back.sha256)) return undefined;
  const parts = [extractor.name, input.contextType, input.documentType.id, input.country, input.front.sha256, input.back?.sha256 ?? '', JSON.stringify(input.expected)];
  return createHash('sha256').update(parts.join('|')).digest('hex');
}

/** Reuses an extraction done ahead of Submit when its key still matches; extracts otherwise. */
export async function extractWithCache(deps: Pick<Deps, 'extractor' | 'extractors' | 'extractionCache' | 'metrics'>, flow: Flow, verificationId: string, documentId: string, input: ExtractionInput): Promise<Extraction> {
  const extractor = extractorFor(deps, flow);
  const key = extractionKey(extractor, input);
  const cached = key ? await deps.extractionCache.get(verificationId, documentId, key) : undefined;
  return cached ?? measuredExtract(deps, extractor, input);
}

/** One extractor call, recorded: how long it took and the mean confidence of the fields it read (cache hits are not extractions). */
export async function measuredExtract(deps: Pick<Deps, 'metrics'>, extractor: Extractor, input: ExtractionInput): Promise<Extraction> {
  const started = performance.now();
  const extraction = await extractor.extract(input);
  const dimensions = { extractor: extractor.name, context: input.contextType };
  deps.metrics.record(METRIC.extractionLatency, Math.round(performance.now() - started), 'Milliseconds', dimensions);
  const confidences = Object.values(extraction.confidence);
  if (confidences.length > 0) deps.metrics.record(METRIC.extractionConfidence, (100 * confidences.reduce((a, b) => a + b, 0)) / confidences.length, 'Percent', dimensions);
  return extraction;
}

/**
 * The extractor of a flow: the one it names in config/flows.json when the deployment offers it, the
 * deployment's otherwise. The sandbox (test mode) stands in for all of them.
 */
export function extractorFor(deps: Pick<Deps, 'extractor' | 'extractors'>, flow: Flow): Extractor {
  if (deps.extractor.name === 'sandbox' || !flow.extractor) return deps.extractor;
  return deps.extractors?.[flow.extractor] ?? deps.extractor;
}
