import type { DocumentRecord, HistoryEntry, Verification } from '../domain/entities';
import type { ListId, ScreenedPerson, ScreeningHit } from '../domain/screening/types';
import type { DomainEvent } from '../events/events';
import type { ListChanges, SanctionsScreener } from './screening';

/** A hit a reviewer cleared on one verification: it is not raised again there for that entry (a re-run, a re-screen). */
export interface ScreeningClearance {
  list: ListId;
  entry: string;
  /** The acting reviewer's e-mail, as history records it. */
  user: string;
  comment: string;
  createdAt: string;
}

/** A person screened on a verification of a flow that re-screens: what the re-screen job passes over, one item each. */
export interface ScreenedRecord {
  verificationId: string;
  flow: string;
  /** Every person the pipeline screened for it (as read on the photo ID, and as expected when that differs). */
  people: ScreenedPerson[];
  screenedAt: string;
}

/** A clearance with what it commits: the verification (its version moved), the photo ID's rule result marked, the history entry. */
export interface ClearanceChange {
  clearance: ScreeningClearance;
  verification: Verification;
  expectedVersion: number;
  /** The photo ID with its `person.screening` result marked cleared (conditioned on its version), when it has one. */
  document?: DocumentRecord;
  history: HistoryEntry;
}

/**
 * What screening keeps per verification, in its partition (removed with it by the purge): one
 * clearance item per cleared entry, one item naming the people screened (flows that re-screen, found
 * through a sparse index per flow, so the re-screen job reads one small item per verification and
 * nothing grows on one item), and one marker per entry a re-screen alerted on.
 */
export interface ScreeningStore {
  clearances(verificationId: string): Promise<ScreeningClearance[]>;
  /**
   * Records a clearance in one transaction with its history entry, the verification's new version and
   * the photo ID's marked result; ConflictError when the verification or document changed meanwhile,
   * InvalidStateError when the entry is already cleared there.
   */
  clear(change: ClearanceChange): Promise<void>;
  /** The people screened for a verification, replacing what was recorded before (a re-run). */
  recordScreened(record: ScreenedRecord): Promise<void>;
  /** A page of the flow's screened records (the re-screen's one pass); `cursor` from the page before. */
  screened(flow: string, cursor?: string): Promise<{ records: ScreenedRecord[]; cursor?: string }>;
  /** Entries a re-screen already alerted on for this verification (with the snapshot date each was alerted at). */
  alerts(verificationId: string): Promise<{ list: ListId; entry: string; asOf: string }[]>;
  /**
   * Commits a re-screen alert with its event (the outbox row) in one transaction; false when this
   * entry was already alerted on from the same snapshot (a repeated job run publishes nothing twice).
   */
  alert(verificationId: string, hit: ScreeningHit, asOf: string, event: DomainEvent): Promise<boolean>;
}

/** Builds a screener over the entries a new snapshot changed (an index of them alone): the re-screen's one pass. */
export type ChangesScreener = (changes: readonly ListChanges[]) => SanctionsScreener;
