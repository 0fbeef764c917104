import type { ExpectedData, ImageRef } from '../domain/entities';
import type { ContextType } from '../domain/flow';
import type { ExtractedData, Reading } from '../domain/rules';

export interface ExtractionInput {
  contextType: ContextType;
  documentType: { id: number; name: string };
  /** ISO3 issuing country the client declared. */
  country: string;
  front: ImageRef;
  back: ImageRef | null;
  /** For a selfie: the photo ID's front image to compare faces with. */
  compareWith: ImageRef | null;
  /**
   * The verification's expected data, for extractors that search the page for known values (the
   * offline extractor's proof of address and printed fields). Part of the extraction cache key.
   */
  expected: ExpectedData | null;
}

export interface Extraction {
  data: ExtractedData;
  /** Confidence 0..1 per dotted field path (e.g. `person.surname`). */
  confidence: Record<string, number>;
  /**
   * Each value as each source read it (MRZ, barcode, printed text…), including values the spec's
   * extracted_data has no key for (`document.issue_date`). Optional: extractors that read one source
   * do not report it, and the cross-source rules are then not evaluated.
   */
  readings?: Reading[];
  /**
   * For a selfie: the face model's descriptor of its largest face, for the duplicate-face index
   * (src/app/workflow/face-duplicates.ts). Never stored on the document nor in the extraction cache;
   * absent when the extractor gives none (Rekognition) or found no face.
   */
  face?: { model: string; descriptor: number[] };
}

/**
 * Reads a document's images. Adapters: Amazon Textract/Rekognition (deployed), the sandbox
 * (test mode, payload carried in the image), and the offline extractor (MRZ, PDF417, OCR, faces).
 */
export interface Extractor {
  readonly name: string;
  extract(input: ExtractionInput): Promise<Extraction>;
}
