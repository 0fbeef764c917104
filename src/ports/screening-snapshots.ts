import type { ListId, ListSnapshot } from '../domain/screening/types';
import type { ListChanges } from './screening';

/** One list's source as configured (config/screening-sources.json): each file of its snapshot by the loader's key, and its URL. */
export interface ListSource {
  list: ListId;
  files: Record<string, string>;
}

/** What is known of a stored snapshot without reading it: where it is, its date, its size. */
export interface StoredSnapshot {
  list: ListId;
  asOf: string;
  entries: number;
  /** When it was fetched and stored (ISO timestamp). */
  storedAt: string;
  /** Where it is (an S3 key, a file): a new one never overwrites an old one. */
  key: string;
}

/**
 * The versioned snapshots of the lists (deployed: S3, one object per fetched snapshot, plus a small
 * pointer to the newest valid one per list). Screening reads the newest; the refresh job writes a new
 * one only once it is validated.
 */
export interface SnapshotStore {
  newest(list: ListId): Promise<StoredSnapshot | undefined>;
  read(stored: StoredSnapshot): Promise<ListSnapshot>;
  /** Stores a validated snapshot (with the publisher's files as fetched) and makes it the newest. */
  put(snapshot: ListSnapshot, files: Readonly<Record<string, string>>, storedAt: string): Promise<StoredSnapshot>;
}

/** Fetches a source file (https only, bounded in time and size). */
export interface SourceFetcher {
  fetch(url: string): Promise<string>;
}

/** Parses a list's files (by the loader's key) into a snapshot; throws when they do not parse. */
export type SnapshotParser = (list: ListId, files: Readonly<Record<string, string>>, takenAt: string) => ListSnapshot;

/** The entries a new snapshot adds or changes against the previous one. */
export type SnapshotDiff = (previous: ListSnapshot | undefined, next: ListSnapshot) => ListChanges;
