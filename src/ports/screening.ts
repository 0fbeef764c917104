import type { ListId, ScreenedPerson, ScreeningPolicy, ScreeningResult } from '../domain/screening/types';

/**
 * Screens a person against the newest valid snapshot of each list a policy names. Adapters: the
 * in-memory index over snapshots read from files (`npm start`, the batch command, tests) or from
 * the versioned S3 snapshots (deployed). Fails closed: a missing or stale list gives `not_evaluated`,
 * never an empty list of hits.
 */
export interface SanctionsScreener {
  screen(person: ScreenedPerson, policy: ScreeningPolicy, now: Date): Promise<ScreeningResult>;
  /** The lists loaded and the date of each (for health, the console and the re-screen job). */
  loaded(): Promise<{ list: ListId; asOf: string; entries: number }[]>;
}

/** Entries that are new or changed between two snapshots of a list: what a re-screen passes over once (src/domain/screening/screen.ts diffSnapshots). */
export type { ListChanges } from '../domain/screening/types';
