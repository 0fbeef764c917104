import type { ContextType } from './flow';
import type { ExtractedData, Reading, RulesReport } from './rule-types';
import type { DocumentStatus, VerificationStatus } from './status';

/** Expected data exactly as the API shows it: every key present, empty string when not given. */
export interface ExpectedData {
  person: { first_name: string; last_name: string; date_of_birth: string };
  address: { street: string; city: string; state: string; postal_code: string; country: string };
  documents: {
    photo_id: { type: string; number: string; country: string };
    proof_of_address: { type: string; number: string; country: string };
  };
}

export interface Verification {
  id: string;
  /** Flow path name, e.g. `default`. */
  flow: string;
  vendorReference: string | null;
  vendorState: string | null;
  expectedData: ExpectedData;
  status: VerificationStatus;
  submittedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Optimistic-concurrency counter, +1 on every write of the verification item. */
  version: number;
  /** Pipeline run counter, +1 each time processing is (re)started; names the execution. */
  run: number;
  /** The last run whose outcome was recorded: a retried FinishRun does not record it twice. */
  processedRun: number;
  /**
   * The newest comments of each kind (`KEPT_COMMENTS`), kept on the verification item so List can
   * show them without reading each partition; every comment is also on its history entry.
   */
  comments: Comment[];
  /** When a verification still Started is moved to Expired (created_at + the flow's expire_after_days). */
  expiresAt: string;
}

export interface Decision {
  id: string;
  status: DocumentStatus;
  validation_workflow: 'automatic' | 'manual';
  createdAt: string;
  updatedAt: string;
}

export interface ImageRef {
  key: string;
  contentType: string;
  /** SHA-256 of the stored bytes (absent on images stored before it was recorded). */
  sha256?: string;
}

export interface DocumentRecord {
  id: string;
  verificationId: string;
  flow: string;
  contextType: ContextType;
  typeId: number;
  country: string;
  status: DocumentStatus;
  front: ImageRef;
  back: ImageRef | null;
  extractedData: ExtractedData | null;
  /** Confidence 0..1 per extracted field (dotted path), kept for the rules; not shown by the API. */
  extractionConfidence: Record<string, number> | null;
  rules: RulesReport | null;
  /** Which extractor read the document and what each source read (not shown by the API; the fraud rules and receipts use it). */
  extractionInfo?: ExtractionInfo | null;
  decisions: Decision[];
  reportSha256: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface ExtractionInfo {
  extractor: string;
  readings: Reading[];
}

export interface HistoryEntry {
  id: string;
  fromStatus: VerificationStatus | null;
  toStatus: VerificationStatus;
  user: string;
  /** The name of the API token that made a manual change (not shown by the API: the e-mail is what the caller claims, this is the credential it used). */
  token?: string;
  comment: string | null;
  createdAt: string;
  /** Expected-data fields (dotted paths) the change altered; empty when it altered none. */
  changedFields: string[];
}

export interface Comment {
  id: string;
  content: string;
  status: VerificationStatus;
  private: boolean;
  createdAt: string;
}

/** A verification's partition as Get Verification reads it: documents and the newest `HISTORY_SHOWN` history entries. */
export interface VerificationAggregate {
  verification: Verification;
  documents: DocumentRecord[];
  history: HistoryEntry[];
}

/**
 * The outcome of a state change on one verification, written atomically by the repository:
 * the verification item is written only if its version is still `expectedVersion`.
 */
export interface VerificationChange {
  verification: Verification;
  /** The verification as read (at `expectedVersion`): what the status counters and list entries move from. */
  previous: Verification;
  expectedVersion: number;
  /** Documents rewritten by the change (each conditioned on its own version). */
  documents: DocumentRecord[];
  /**
   * Documents that must still exist, unchanged (same id and version), when the change commits: the ones
   * Submit counted, the ones an automatic decision was made from.
   */
  requiredDocuments: DocumentRecord[];
  history: HistoryEntry[];
  /** True when the change (re)starts processing: run `verification.run`. */
  startWorkflow: boolean;
}
