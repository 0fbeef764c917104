import type { Port } from './app/deps';

/** What recording a run's outcome uses (FinishRun, FailRun, the execution-ended rule, the sweeper). */
const FINISH = ['verifications', 'flows', 'clock', 'ids', 'events', 'outbox', 'metrics'] as const;

/**
 * The ports of every function outside the route table (workflow tasks, event consumers, jobs), by
 * entry file: the entry hands exactly these to its use case (getDeps), and the CDK grants follow
 * from them as they do from a route's needs (the session secret, PutEvents). `tsc` refuses a list
 * that misses a port its use case takes.
 */
export const ENTRY_PORTS = {
  authorizer: ['tokens', 'usageKeys'],
  'workflow/start-run': ['verifications', 'documents', 'clock'],
  // A selfie's face descriptor goes to the duplicate-face index as it is extracted (never onto the document).
  // A selfie made from a liveness challenge's frames has them observed here (the face engines load in this function).
  'workflow/extract-document': ['verifications', 'documents', 'flows', 'clock', 'extractor', 'extractors', 'extractionCache', 'metrics', 'faceIndex', 'liveness', 'livenessObserver'],
  // The duplicate-document fingerprints are made with a KMS HMAC key (kms:GenerateMac goes to it only: lib/fingerprints.ts).
  // Sanctions screening (person.screening): the lists' snapshots and the verification's clearances.
  'workflow/evaluate-document': ['verifications', 'documents', 'flows', 'clock', 'ids', 'ruleThresholds', 'documentIndex', 'documentFingerprints', 'faceIndex', 'liveness', 'faceLivenessSessions', 'faceLivenessMinConfidence', 'screener', 'screenings'],
  // FinishRun alone signs decision receipts (the KMS Sign grant goes to it only: lib/receipts.ts).
  'workflow/finish-run': [...FINISH, 'receipts', 'receiptSigner', 'ruleThresholds'],
  'workflow/fail-run': FINISH,
  'events/execution-ended': FINISH,
  'events/pre-extract': ['verifications', 'flows', 'extractor', 'extractors', 'extractionCache', 'metrics'],
  'events/dispatch-webhooks': ['webhooks', 'deliveries', 'clock', 'ids'],
  'events/deliver-webhook': ['webhooks', 'deliveries', 'clock', 'webhookSender', 'webhookRetry', 'metrics'],
  'jobs/expire-verifications': ['verifications', 'clock', 'ids'],
  'jobs/publish-outbox': ['events', 'outbox', 'clock', 'metrics'],
  'jobs/purge-deleted': ['verifications', 'clock', 'sessionSecret', 'blobs', 'receipts', 'documentIndex', 'faceIndex', 'liveness', 'faceLivenessSessions'],
  'jobs/sweep-runs': [...FINISH, 'workflow'],
  // Fetches the configured sanctions lists, stores each valid snapshot (the screening bucket), re-screens what changed (ScreeningHit).
  'jobs/refresh-screening-lists': ['flows', 'verifications', 'screenings', 'screeningSnapshots', 'sourceFetcher', 'snapshotParser', 'changesScreener', 'clock', 'ids', 'events', 'outbox', 'metrics'],
  // Lists the image bucket and reads document and liveness challenge items, never writes the table (lib/scheduled-jobs.ts grants it so).
  'jobs/sweep-orphans': ['imageInventory', 'imageReferences', 'clock', 'liveness', 'faceLivenessSessions'],
} as const satisfies Record<string, readonly Port[]>;

export type Entry = keyof typeof ENTRY_PORTS;

/** Entries that only read the table: their table key grant is Decrypt alone (lib/identity-verification-service.ts). */
export const TABLE_READ_ONLY_ENTRIES: ReadonlySet<string> = new Set<Entry>(['jobs/sweep-orphans']);

/** The ports of one entry file (CDK reads this for grants). */
export function entryPorts(file: string): readonly Port[] {
  const ports = (ENTRY_PORTS as Record<string, readonly Port[]>)[file];
  if (!ports) throw new Error(`no ports declared for functions/${file} (src/entries.ts)`);
  return ports;
}

