import type { DomainEvent } from '../events/events';
import type { DocumentRecord, HistoryEntry, Verification, VerificationAggregate, VerificationChange } from '../domain/entities';

import type { VerificationStatus } from '../domain/status';

/** What a list is narrowed to; every filter is served by an index, and totals are exact. */
export interface VerificationFilter {
  /** One flow's path; undefined: every flow. */
  flow?: string | undefined;
  status?: VerificationStatus | undefined;
  /** Prefix of the normalised id, vendor reference or name ("first last" or "last first"). */
  search?: string | undefined;
}

export interface VerificationPage {
  items: Verification[];
  total: number;
}

/**
 * Verifications and everything in their partition. Writes are conditional: a concurrent writer
 * surfaces as ConflictError (retry) or a domain error, never as a half-applied change.
 */
export interface VerificationRepository {
  /** Writes the verification, its creation history entry, its session-token hash and the list counters atomically. */
  create(verification: Verification, history: HistoryEntry, sessionTokenHash: string): Promise<void>;
  /** The verification a widget session token (by its SHA-256) belongs to. */
  findBySession(sessionTokenHash: string): Promise<string | undefined>;
  /** The verification with documents, history and comments (one Query); undefined when absent or deleted. */
  get(id: string): Promise<VerificationAggregate | undefined>;
  /** Newest first, narrowed by `filter`; `total` counts every match. */
  list(filter: VerificationFilter, page: number, perPage: number): Promise<VerificationPage>;
  /**
   * Applies a state change if the verification is still at `change.expectedVersion`; otherwise
   * ConflictError. `events` are written to the outbox in the same transaction, and so is the run
   * ticket (Outbox RunTicket) of a change that starts a run (`change.startWorkflow`).
   */
  save(change: VerificationChange, events?: DomainEvent[]): Promise<void>;
  /** Ids of verifications still Started whose expiry time is before `now`, oldest first. */
  startedExpiredBefore(now: string, limit: number): Promise<string[]>;
  /** Ids of soft-deleted verifications whose purge time is before `now`. */
  deletedDueBefore(now: string, limit: number): Promise<string[]>;
  /**
   * Removes a soft-deleted verification's items (documents, history, references, session).
   * `removeImages` gets the image keys first and must succeed before any item is deleted; the
   * verification item goes last, so an interrupted purge is found and finished by the next run.
   */
  purge(verificationId: string, sessionTokenHash: string, removeImages: (keys: string[]) => Promise<void>): Promise<void>;
  /**
   * Soft delete: hidden from get/list, kept until `purgeAt` (epoch seconds, the table's TTL).
   * ConflictError when it was deleted or its status changed since `verification` was read.
   */
  softDelete(verification: Verification, deletedAt: string, purgeAt: number): Promise<void>;
}

export interface DocumentWithParent {
  document: DocumentRecord;
  verification: Verification;
}

/** Documents, reached by their own id. One document per context type per verification is enforced here. */
export interface DocumentRepository {
  /** Creates the document if the verification is still Started and has no document of that context. */
  create(document: DocumentRecord, events?: DomainEvent[]): Promise<void>;
  get(id: string): Promise<DocumentWithParent | undefined>;
  /** Replaces `previous` with `next` (same id) if unchanged since read and the verification is still Started. */
  update(previous: DocumentRecord, next: DocumentRecord, events?: DomainEvent[]): Promise<void>;
  /**
   * Removes the document. With `onlyIfStarted`, in the same transaction the verification must still be
   * Started at that version (the widget's "changes only while Started"), else ConflictError.
   */
  delete(document: DocumentRecord, onlyIfStarted?: { verificationVersion: number }): Promise<void>;
  /**
   * Pipeline write: replaces `previous` with `next` only while the verification is still at `run`.
   * Throws StaleRunError when a newer run (or a manual action) has taken over.
   */
  saveForRun(previous: DocumentRecord, next: DocumentRecord, run: number): Promise<void>;
  /** Records the SHA-256 of the last PDF report generated for the document. */
  recordReportHash(document: DocumentRecord, sha256: string): Promise<void>;
}
