import { AGE_ESTIMATE_KEY } from '../../domain/age-estimate';
import { countryByIso3 } from '../../domain/countries';
import { PRESENTATION_KEYS } from '../../domain/presentation';
import { type ExtractedData, emptyExtractedData, type Reading, type ReadingSource } from '../../domain/rules';
import type { BlobStore } from '../../ports/blob-store';
import type { Extraction, ExtractionInput, Extractor } from '../../ports/extractor';
import { readSandboxPayload } from './payload';

type Group = keyof ExtractedData;

const SOURCES: readonly ReadingSource[] = ['mrz', 'barcode', 'printed', 'ocr', 'pdf_text', 'face_model', 'sandbox'];

/** `readings` of a sandbox payload: what each source read, for the cross-source and issue-date rules; anything malformed is left out. */
function sandboxReadings(raw: unknown): Reading[] {
  if (!Array.isArray(raw)) return [];
  return raw.slice(0, 100).flatMap((r): Reading[] => {
    const { field, value, source } = (r ?? {}) as Record<string, unknown>;
    if (typeof field !== 'string' || typeof value !== 'string' || !SOURCES.includes(source as ReadingSource)) return [];
    return [{ field: field.slice(0, 64), value: value.slice(0, 256), source: source as ReadingSource }];
  });
}

/** The sandbox's face model name: its descriptors are compared only with each other. */
export const SANDBOX_FACE_MODEL = 'sandbox';
/** Longest descriptor a payload may carry (face-api's are 128). */
const MAX_DESCRIPTOR = 512;

const score01 = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 1;

/**
 * `face` of a selfie's sandbox payload: `descriptor` (finite numbers, the duplicate-face index's),
 * `antispoof` and `liveness` (0..1, the presentation-attack scores), `age` (0..120, the face model's
 * age estimate, for the age rules). Anything malformed is left out.
 */
function sandboxFace(raw: unknown, confidence: Record<string, number>): Extraction['face'] {
  if (!raw || typeof raw !== 'object') return undefined;
  const { descriptor, antispoof, liveness, age } = raw as Record<string, unknown>;
  if (typeof age === 'number' && Number.isFinite(age) && age >= 0 && age <= 120) confidence[AGE_ESTIMATE_KEY] = age;
  if (score01(antispoof)) confidence[PRESENTATION_KEYS.antispoof] = antispoof;
  if (score01(liveness)) confidence[PRESENTATION_KEYS.liveness] = liveness;
  if (!Array.isArray(descriptor) || descriptor.length === 0 || descriptor.length > MAX_DESCRIPTOR) return undefined;
  if (!descriptor.every((x) => typeof x === 'number' && Number.isFinite(x))) return undefined;
  return { model: SANDBOX_FACE_MODEL, descriptor: descriptor as number[] };
}

/**
 * Test mode, like the test modes of commercial identity APIs: the outcome is whatever JSON the
 * client put in the image (see docs/how-to/integrate-the-api.md "Test mode"). Never selected silently in a deployed stack.
 */
export class SandboxExtractor implements Extractor {
  readonly name = 'sandbox';
  constructor(private readonly blobs: BlobStore) {}

  async extract(input: ExtractionInput): Promise<Extraction> {
    const data = emptyExtractedData();
    const payload = readSandboxPayload(await this.blobs.get(input.front.key)) as Record<string, unknown> | undefined;
    if (!payload || typeof payload !== 'object') return { data, confidence: {} };
    const confidence: Record<string, number> = {};
    const defaultConfidence = typeof payload.confidence === 'number' ? payload.confidence : 0.99;
    for (const group of Object.keys(data) as Group[]) {
      const values = payload[group];
      if (!values || typeof values !== 'object') continue;
      const target = data[group] as Record<string, string>;
      for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
        // Own fields only: `in` would let `toString`, `constructor`… overwrite the object's methods.
        if (!Object.hasOwn(target, key) || value === null || value === undefined) continue;
        target[key] = String(value);
        confidence[`${group}.${key}`] = defaultConfidence;
      }
    }
    const declared = (payload.document as Record<string, unknown> | undefined)?.identified;
    if (declared === undefined) data.document.identified = 'true';
    if (data.document.country_code && !data.document.country_name) {
      data.document.country_name = countryByIso3(data.document.country_code)?.name ?? '';
    }
    const face = input.contextType === 'SELFIE' ? sandboxFace(payload.face, confidence) : undefined;
    if (input.contextType === 'SELFIE') data.document.has_selfie = 'true';
    const readings = sandboxReadings(payload.readings);
    return { data, confidence, ...(readings.length > 0 && { readings }), ...(face && { face }) };
  }
}
