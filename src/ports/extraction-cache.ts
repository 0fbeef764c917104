import type { Extraction } from './extractor';

/**
 * Extractions done ahead of Submit (on DocumentUploaded), keyed by what they were computed from
 * (image hashes, type, country): a run reuses one only when the key still matches the document.
 */
export interface ExtractionCache {
  get(verificationId: string, documentId: string, key: string): Promise<Extraction | undefined>;
  put(verificationId: string, documentId: string, key: string, extraction: Extraction): Promise<void>;
}
