import type { RuleThresholds } from '../domain/rules';
import type { RetryPolicy } from '../domain/webhooks';
import type { DeliveryQueue, WebhookRepository, WebhookSender } from '../ports/webhooks';
import type { BlobStore } from '../ports/blob-store';
import type { Clock, IdGenerator } from '../ports/clock';
import type { EventPublisher } from '../ports/event-publisher';
import type { DocumentFingerprinter, DocumentIndex } from '../ports/document-index';
import type { FaceIndex } from '../ports/face-index';
import type { ReceiptRepository, ReceiptSigner } from '../ports/receipts';
import type { ExtractionCache } from '../ports/extraction-cache';
import type { ExtractorName } from '../domain/flow';
import type { Extractor } from '../ports/extractor';
import type { FaceLivenessProvider, FaceLivenessSessions, LivenessChallenges, LivenessObserver } from '../ports/liveness';
import type { FlowRepository } from '../ports/flow-repository';
import type { ImageInventory, ImageReferences } from '../ports/image-inventory';
import type { BusinessMetrics } from '../ports/metrics';
import type { Outbox } from '../ports/outbox';
import type { IdempotencyStore } from '../ports/idempotency';
import type { DependencyProbe } from '../ports/readiness';
import type { ReportRenderer } from '../ports/report-renderer';
import type { SanctionsScreener } from '../ports/screening';
import type { ChangesScreener, ScreeningStore } from '../ports/screening-store';
import type { SnapshotParser, SnapshotStore, SourceFetcher } from '../ports/screening-snapshots';
import type { ApiTokenRepository } from '../ports/token-repository';
import type { DocumentRepository, VerificationRepository } from '../ports/verification-repository';
import type { WorkflowStarter } from '../ports/workflow-starter';

/** The settings the widget's Rekognition-mode capture needs (`Deps.faceLivenessCapture`). */
export interface FaceLivenessCapture {
  region: string;
  identityPoolId: string;
}

/** Everything a use case may touch, built once per container by src/container.ts. */
export interface Deps {
  verifications: VerificationRepository;
  documents: DocumentRepository;
  flows: FlowRepository;
  blobs: BlobStore;
  workflow: WorkflowStarter;
  tokens: ApiTokenRepository;
  idempotency: IdempotencyStore;
  reports: () => Promise<ReportRenderer>;
  /** The deployment's extractor; `extractors` holds those a flow can choose instead (config/flows.json `extractor`). */
  extractor: Extractor;
  extractors?: Partial<Record<ExtractorName, Extractor>>;
  extractionCache: ExtractionCache;
  /** Which verifications of a flow showed the same identity document (keyed fingerprints): the duplicate-document rule. */
  documentIndex: DocumentIndex;
  /** The selfie face descriptors of each flow (biometric data, removed by the purge): the duplicate-face rule. */
  faceIndex: FaceIndex;
  /**
   * Liveness challenges issued to widget sessions, used once (src/app/liveness.ts). Optional like
   * `extractors`: the shared in-memory fakes hold none; a function that names it gets the table's.
   */
  liveness?: LivenessChallenges;
  /** What the face models see in a challenge's frames: the sandbox's payloads or the offline engines; null when the deployment has neither. */
  livenessObserver?: LivenessObserver | null;
  /**
   * Amazon Rekognition Face Liveness, for the flows whose `checks.liveness_provider` is `rekognition`
   * (the capture hosted by AWS, the result read by the server); null where the deployment has none
   * (npm start, or a stack without the option): those flows are then answered with a clear 400.
   */
  faceLiveness?: FaceLivenessProvider | null;
  /** The Rekognition sessions given to widget sessions, on their challenge items (read back by the pipeline and the purge). */
  faceLivenessSessions?: FaceLivenessSessions;
  /** The confidence (0–100) a SUCCEEDED Face Liveness session needs to pass (REKOGNITION_LIVENESS_MIN_CONFIDENCE, 90 by default). */
  faceLivenessMinConfidence?: number;
  /**
   * Where the widget's capture in a `rekognition` flow streams to and gets its credentials from: the
   * Face Liveness region and the Cognito identity pool (REKOGNITION_LIVENESS_REGION,
   * REKOGNITION_LIVENESS_IDENTITY_POOL_ID). Two settings, no client: the page function opens its
   * Content-Security-Policy to these hosts and the challenge's answer carries the pool id, without
   * either being granted anything of Rekognition's. null where either is unset: the page stays closed
   * to AWS and the widget says the check cannot start there (fail closed).
   */
  faceLivenessCapture?: FaceLivenessCapture | null;
  /**
   * Sanctions screening against the newest snapshot of each list (a flow's `checks.screening`):
   * snapshots read from files locally, from the versioned S3 snapshots deployed. Optional like
   * `liveness`: without it the rule says not evaluated, which sends to review (fail closed).
   */
  screener?: SanctionsScreener;
  /** Clearances, the people screened (for the re-screen job) and re-screen alerts, in each verification's partition. */
  screenings?: ScreeningStore;
  /** The lists' versioned snapshots (deployed: the screening bucket); none locally, where lists are files read at start. */
  screeningSnapshots?: SnapshotStore;
  /** The list refresh's tools: fetching a publisher's file, parsing a list's files (one loader per list), indexing a snapshot's changes alone. */
  sourceFetcher?: SourceFetcher;
  snapshotParser?: SnapshotParser;
  changesScreener?: ChangesScreener;
  /** Signed decision receipts, one per run. */
  receipts: ReceiptRepository;
  /** The image bucket listed and pruned: the orphan-image sweep only (src/app/sweep-orphans.ts). */
  imageInventory: ImageInventory;
  /** Which stored images a document still names, soft-deleted verifications included: the orphan-image sweep only. */
  imageReferences: ImageReferences;
  /** Signs receipts: KMS deployed, a key file locally. */
  receiptSigner: ReceiptSigner;
  /** Keyed fingerprints of identity documents: a KMS HMAC key deployed, a key file locally. */
  documentFingerprints: DocumentFingerprinter;
  events: EventPublisher;
  outbox: Outbox;
  webhooks: WebhookRepository;
  deliveries: DeliveryQueue;
  webhookSender: WebhookSender;
  webhookRetry: RetryPolicy;
  /** Deployed: https only. Locally plain http to loopback is allowed so a developer can receive webhooks. */
  webhookPolicy: { requireHttps: boolean };
  ruleThresholds: RuleThresholds;
  clock: Clock;
  ids: IdGenerator;
  /** Secret that derives each verification's session token (HMAC), so links can be shown again while only hashes are stored. */
  sessionSecret: Uint8Array;
  /** Public base URL for widget links; undefined means "the base URL of the current request". */
  publicBaseUrl: string | undefined;
  /** Usage plans meter the API: the authorizer returns each token's id as its API key (API Gateway `usageIdentifierKey`). */
  usageKeys: boolean;
  /** Days a soft-deleted verification is kept before the purge job removes it. */
  deletedRetentionDays: number;
  /** Business metrics; only the functions where the counted event happens name this port (its package stays out of the others' bundles). */
  metrics: BusinessMetrics;
  /** The backing services `/health` checks (cheap reads, no writes). */
  probes: readonly DependencyProbe[];
}

/** Per-request facts the use cases need from the transport. */
export interface RequestInfo {
  /** e.g. https://abc.execute-api.eu-west-1.amazonaws.com/prod or http://127.0.0.1:3000 */
  baseUrl: string;
  /** Who calls, from the authorizer (authenticated routes only). */
  caller?: Caller;
}

/** The token behind a request: its name, whether it is a named reviewer token, its flows (`*`: all). */
export interface Caller {
  name: string;
  reviewer: boolean;
  flows: string[] | '*';
}

/** A dependency's name: what a route or a function declares it uses, and what decides its bundle's parts (src/clients.ts). */
export type Port = keyof Deps;
