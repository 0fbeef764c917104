import { countryByIso3 } from '../../domain/countries';
import { type ExtractedData, emptyExtractedData } from '../../domain/rules';
import type { BlobStore } from '../../ports/blob-store';
import type { Extraction, ExtractionInput, Extractor } from '../../ports/extractor';
import { readSandboxPayload } from './payload';

type Group = keyof ExtractedData;

/**
 * Test mode, like the test modes of commercial identity APIs: the outcome is whatever JSON the
 * client put in the image (see README "Sandbox"). Never selected silently in a deployed stack.
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
    if (input.contextType === 'SELFIE') data.document.has_selfie = 'true';
    return { data, confidence };
  }
}
