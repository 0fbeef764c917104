import type { Extraction } from './extractor';

/**
 * Extractions done ahead of Submit (on DocumentUploaded), keyed by what they were computed from
 * (image hashes, type, country): a run reuses one only when the key still matches the document.
 */
export interface ExtractionCache {
  get(verificationId: string, documentId: string, key: string): Promise<Extraction | undefined>;
  /** `images`: the SHA-256 of the images it was read from (front, then back), so that a reader without the key can tell it is current. */
  put(verificationId: string, documentId: string, key: string, extraction: Extraction, images: readonly string[]): Promise<void>;
  /**
   * The document's latest extraction whatever its key, with the image hashes it was read from: the
   * widget's upload-time reading (src/app/widget-reading.ts) compares them with the document's own
   * and shows only found / not found per field group, never a value.
   */
  latest(documentId: string): Promise<{ extraction: Extraction; images: readonly string[] } | undefined>;
}
