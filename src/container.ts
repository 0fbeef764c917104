import { DynamoDocumentRepository } from './adapters/dynamodb/document-repository';
import { DynamoDocumentIndex } from './adapters/dynamodb/document-index';
import { DynamoFaceIndex } from './adapters/dynamodb/face-index';
import { DynamoLivenessChallenges } from './adapters/dynamodb/liveness-challenges';
import { DynamoFaceLivenessSessions } from './adapters/dynamodb/face-liveness-sessions';
import { faceLivenessClient } from './adapters/rekognition/client';
import { RekognitionFaceLiveness } from './adapters/rekognition/face-liveness';
import { SandboxLivenessObserver } from './adapters/sandbox/liveness-observer';
import { DynamoExtractionCache } from './adapters/dynamodb/extraction-cache';
import { DynamoReceiptRepository } from './adapters/dynamodb/receipt-repository';
import { DynamoScreeningStore } from './adapters/dynamodb/screening-store';
import { FileReceiptSigner } from './adapters/receipts/file-signer';
import { KmsReceiptSigner } from './adapters/receipts/kms-signer';
import { FileFingerprinter } from './adapters/kms/file-mac';
import { KmsFingerprinter } from './adapters/kms/mac';
import { DynamoFlowRepository } from './adapters/dynamodb/flow-repository';
import { DynamoImageReferences } from './adapters/dynamodb/image-references';
import { DynamoIdempotencyStore } from './adapters/dynamodb/idempotency-store';
import { DynamoOutbox } from './adapters/dynamodb/outbox';
import { DynamoTableProbe } from './adapters/dynamodb/table-probe';
import { DynamoTokenRepository } from './adapters/dynamodb/token-repository';
import { DynamoVerificationRepository } from './adapters/dynamodb/verification-repository';
import { DynamoWebhookRepository } from './adapters/dynamodb/webhook-repository';
import { EmfMetrics } from './adapters/cloudwatch/emf-metrics';
import { EventBridgePublisher } from './adapters/eventbridge/event-publisher';
import { HttpWebhookSender } from './adapters/http/webhook-sender';
import { SystemClock, UlidGenerator } from './adapters/ids';
import { S3BlobStore } from './adapters/s3/blob-store';
import { S3ImageInventory } from './adapters/s3/image-inventory';
import { S3SnapshotStore } from './adapters/s3/screening-snapshots';
import { SnapshotScreener } from './adapters/s3/snapshot-screener';
import { FileScreener } from './adapters/screening/file-screener';
import { LOADERS } from './adapters/screening/loaders';
import { HttpsSourceFetcher } from './adapters/http/list-fetcher';
import { IMAGE_PREFIX } from './app/documents';
import { loadSessionSecret } from './adapters/secrets/session-secret';
import { SandboxExtractor } from './adapters/sandbox/extractor';
import { SfnWorkflowStarter } from './adapters/sfn/workflow-starter';
import { SqsDeliveryQueue } from './adapters/sqs/delivery-queue';
import { extractionClients } from './adapters/textract/aws-clients';
import { TextractExtractor } from './adapters/textract/extractor';
import type { Deps } from './app/deps';
import { type AwsCredentials, createClients, notBundled } from './clients';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import * as v from 'valibot';
import ruleThresholds from '../config/rules.json';
import { type Config, loadConfig, required } from './config';
import type { ExtractorName } from './domain/flow';
import { RuleThresholdsSchema } from './domain/rule-thresholds';
import { logger } from './logger';
import type { EventPublisher } from './ports/event-publisher';
import type { BlobStore } from './ports/blob-store';
import type { BusinessMetrics } from './ports/metrics';
import type { Extractor } from './ports/extractor';
import type { LivenessObserver } from './ports/liveness';
import type { SanctionsScreener } from './ports/screening';
import type { SnapshotParser, SnapshotStore } from './ports/screening-snapshots';
import type { ChangesScreener } from './ports/screening-store';
import type { DeliveryQueue } from './ports/webhooks';
import type { WorkflowStarter } from './ports/workflow-starter';

/** What the local runtime runs in process instead of Step Functions, EventBridge and SQS. */
export interface LocalAdapters {
  workflow: WorkflowStarter;
  events: EventPublisher;
  deliveries: DeliveryQueue;
  /** The sanctions lists' snapshots, loaded from files at start (none: screening says not evaluated). */
  screener?: SanctionsScreener;
}
/** The local runtime's configuration, given explicitly (never written into process.env). */
export interface LocalConfiguration {
  adapters: LocalAdapters;
  /** Settings as the Lambdas get them from the stack, pointed at the local servers. */
  settings: Record<string, string | undefined>;
  credentials: AwsCredentials;
}
let localConfig: LocalConfiguration | undefined;

type Factories = { readonly [K in keyof Deps]-?: () => Deps[K] | Promise<Deps[K]> };
let factories: Partial<Factories> | undefined;
/** Ports built so far in this process: each is built once, on first use. */
const built = new Map<keyof Deps, unknown>();
/** Ports read over the network (the session secret): awaited before a use case gets them; a failed read is retried next time. */
const ASYNC_PORTS: ReadonlySet<keyof Deps> = new Set(['sessionSecret']);
const reading = new Map<keyof Deps, Promise<void>>();
/** One view per list of ports, reused by every request. */
const views = new Map<string, unknown>();

/**
 * The local runtime supplies its in-process adapters, its settings and its credentials here, so
 * that Lambda bundles never contain them and nothing is written into process.env.
 */
export function configureLocal(configuration: LocalConfiguration): void {
  localConfig = configuration;
  factories = undefined;
  built.clear();
  views.clear();
}

/** A value built on first use, then kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** An extractor whose module (and SDK clients) load on first use. */
function lazyExtractor(name: string, load: () => Promise<Extractor>): Extractor {
  let instance: Promise<Extractor> | undefined;
  return {
    name,
    extract: async (input) => (await (instance ??= load())).extract(input),
  };
}

/**
 * How to build each port. Nothing is built here: config is validated (once per cold start) and each
 * factory creates its adapter, and the SDK client behind it, only when a function asks for that port.
 */
function createFactories(): Partial<Factories> {
  const config = loadConfig(localConfig?.settings ?? process.env);
  const clients = createClients(config, localConfig?.credentials);
  const local = localConfig?.adapters;
  if (config.RUNTIME === 'local' && !local) throw new Error('RUNTIME=local needs the local runtime (npm start) to supply its adapters');
  const isLocal = config.RUNTIME === 'local';
  const blobs = process.env.IDV_BUNDLE_S3 === 'absent' ? notBundled('s3') : once(() => new S3BlobStore(clients.s3, clients.s3Presign, required(config.BUCKET_NAME, 'BUCKET_NAME'), logger));
  // Each group is guarded by the bundler's substitution (bundleDefines, src/clients.ts): a function
  // whose ports never reach a client carries neither that client nor the adapters built on it.
  return {
    ...(process.env.IDV_BUNDLE_DYNAMODB === 'absent' ? {} : tableFactories(clients.doc, required(config.TABLE_NAME, 'TABLE_NAME'))),
    blobs,
    // Only the orphan-image sweep lists the bucket (a guarded port: the others' bundles leave it out).
    ...(process.env.IDV_BUNDLE_S3 === 'absent' || process.env.IDV_PORT_IMAGEINVENTORY === 'absent'
      ? {}
      : { imageInventory: () => new S3ImageInventory(clients.s3, required(config.BUCKET_NAME, 'BUCKET_NAME'), IMAGE_PREFIX) }),
    ...(process.env.IDV_BUNDLE_EXTRACTORS === 'absent' ? {} : extractorFactories(config, blobs)),
    ...(process.env.IDV_BUNDLE_SFN === 'absent' ? {} : { workflow: () => local?.workflow ?? new SfnWorkflowStarter(clients.sfn, required(config.STATE_MACHINE_ARN, 'STATE_MACHINE_ARN')) }),
    ...(process.env.IDV_BUNDLE_EVENTBRIDGE === 'absent' ? {} : { events: () => local?.events ?? new EventBridgePublisher(clients.eventBridge, required(config.EVENT_BUS_NAME, 'EVENT_BUS_NAME')) }),
    ...(process.env.IDV_BUNDLE_SQS === 'absent'
      ? {}
      : {
          deliveries: () =>
            local?.deliveries ??
            new SqsDeliveryQueue(clients.sqs, required(config.DELIVERY_QUEUE_URL, 'DELIVERY_QUEUE_URL'), required(config.DEAD_LETTER_QUEUE_URL, 'DEAD_LETTER_QUEUE_URL')),
        }),
    ...(process.env.IDV_BUNDLE_SECRETS === 'absent'
      ? {}
      : {
          // Read from Secrets Manager only by the functions that mint or check widget links, on first use.
          sessionSecret: () =>
            config.SESSION_SECRET ? Buffer.from(config.SESSION_SECRET, 'utf8') : loadSessionSecret(clients.secrets, required(config.SESSION_SECRET_ARN, 'SESSION_SECRET_ARN (or SESSION_SECRET locally)')),
        }),
    webhookSender: process.env.IDV_PORT_WEBHOOKSENDER === 'absent' ? undefined : () => new HttpWebhookSender({ timeoutMs: 10_000, allowLoopback: isLocal, requireHttps: !isLocal }),
    webhookRetry: () => ({ baseSeconds: config.WEBHOOK_RETRY_BASE_SECONDS, maxDelaySeconds: 900, maxAgeSeconds: config.WEBHOOK_MAX_AGE_SECONDS }),
    webhookPolicy: () => ({ requireHttps: !isLocal }),
    // Only the functions that judge extractions name it (a guarded port: the others' bundles leave the rules module out).
    ruleThresholds: process.env.IDV_PORT_RULETHRESHOLDS === 'absent' ? undefined : () => v.parse(RuleThresholdsSchema, ruleThresholds),
    ...(process.env.IDV_BUNDLE_REPORTS === 'absent'
      ? {}
      : {
          // pdf-lib, sharp and pdf.js are loaded only by the function that renders reports; deployed, that
          // function is its own Lambda, locally each report is drawn in a worker thread beside the API.
          reports: () => async () =>
            process.env.IDV_BUNDLE_LOCAL !== 'absent' && isLocal
              ? new (await import('./adapters/pdf/worker-renderer')).WorkerReportRenderer(undefined, logger)
              : new (await import('./adapters/pdf/report-renderer')).PdfLibReportRenderer(),
        }),
    ...(process.env.IDV_PORT_RECEIPTSIGNER === 'absent'
      ? {}
      : {
          // Locally a key file in the data folder; deployed the KMS key, called with the credentials the table client uses.
          receiptSigner: () =>
            config.RECEIPT_KEY_FILE
              ? new FileReceiptSigner(config.RECEIPT_KEY_FILE)
              : new KmsReceiptSigner(required(config.RECEIPT_KEY_ID, 'RECEIPT_KEY_ID (or RECEIPT_KEY_FILE locally)'), config.AWS_REGION, () => clients.dynamo.config.credentials()),
        }),
    ...(process.env.IDV_PORT_DOCUMENTFINGERPRINTS === 'absent'
      ? {}
      : {
          // Locally a key file in the data folder; deployed the KMS HMAC key, called with the table client's credentials.
          documentFingerprints: () =>
            config.FINGERPRINT_KEY_FILE
              ? new FileFingerprinter(config.FINGERPRINT_KEY_FILE)
              : new KmsFingerprinter(required(config.FINGERPRINT_KEY_ID, 'FINGERPRINT_KEY_ID (or FINGERPRINT_KEY_FILE locally)'), config.AWS_REGION, () => clients.dynamo.config.credentials()),
        }),
    // Powertools Metrics only in the functions that name the port; npm start records none (no CloudWatch to read them).
    ...(process.env.IDV_BUNDLE_METRICS === 'absent' ? {} : { metrics: (): BusinessMetrics => (isLocal ? { record: () => {} } : new EmfMetrics()) }),
    // Amazon Rekognition Face Liveness (guarded: only the widget's liveness functions bundle its client). None
    // locally or without a region: a `rekognition` flow is then answered with a clear 400, never a pass.
    // In the stack's own region Rekognition writes the session's images into the image bucket, with its key.
    ...(process.env.IDV_PORT_FACELIVENESS === 'absent'
      ? {}
      : {
          faceLiveness: () => {
            const region = config.REKOGNITION_LIVENESS_REGION;
            if (!region || isLocal) return null;
            const output = region === config.AWS_REGION ? { bucket: required(config.BUCKET_NAME, 'BUCKET_NAME'), ...(config.IMAGE_KEY_ID && { kmsKeyId: config.IMAGE_KEY_ID }) } : {};
            return new RekognitionFaceLiveness(faceLivenessClient(region), region, output, logger);
          },
        }),
    faceLivenessMinConfidence: () => config.REKOGNITION_LIVENESS_MIN_CONFIDENCE,
    // Settings only (the page's policy, the challenge's answer): both, or none.
    faceLivenessCapture: () => {
      const region = config.REKOGNITION_LIVENESS_REGION;
      const identityPoolId = config.REKOGNITION_LIVENESS_IDENTITY_POOL_ID;
      return region && identityPoolId ? { region, identityPoolId } : null;
    },
    // Locally the snapshots loaded from files at start; deployed the newest stored snapshots (the screening bucket).
    // Neither (no flow screens, no bucket): none, and the rule says not evaluated (review), never passed.
    ...screeningFactories(config, () => clients.s3, local),
    clock: () => new SystemClock(),
    // Guarded: the ULID generator stays out of the functions that mint no id.
    ids: process.env.IDV_PORT_IDS === 'absent' ? undefined : () => new UlidGenerator(),
    publicBaseUrl: () => config.PUBLIC_BASE_URL,
    deletedRetentionDays: () => config.DELETED_RETENTION_DAYS,
    // Only the authorizer names it (a guarded port: the others' bundles leave it out).
    usageKeys: process.env.IDV_PORT_USAGEKEYS === 'absent' ? undefined : () => config.USAGE_PLAN_KEYS === 'true',
  };
}

/**
 * Sanctions screening's snapshots and screener: the local runtime's (files read at start), else the
 * stack's screening bucket (SCREENING_BUCKET, set on the functions that screen or refresh), read
 * through S3 when this bundle holds the S3 client.
 */
function screeningFactories(config: Config, s3: () => S3Client, local: LocalAdapters | undefined): Partial<Factories> {
  const bucket = config.SCREENING_BUCKET;
  const snapshots = process.env.IDV_BUNDLE_S3 === 'absent' || !bucket ? undefined : once(() => new S3SnapshotStore(s3(), bucket));
  // Each guarded (lib/bundling.ts): a function that names none of them carries neither the matcher nor the list parsers.
  return {
    ...(process.env.IDV_PORT_SCREENINGSNAPSHOTS === 'absent' ? {} : { screeningSnapshots: (): SnapshotStore | undefined => snapshots?.() }),
    ...(process.env.IDV_PORT_SOURCEFETCHER === 'absent' ? {} : { sourceFetcher: () => new HttpsSourceFetcher() }),
    ...(process.env.IDV_PORT_SNAPSHOTPARSER === 'absent'
      ? {}
      : {
          snapshotParser: (): SnapshotParser => (list, files, takenAt) => {
            const loader = LOADERS[list];
            if (!loader) throw new Error(`no loader for list ${list}`);
            return loader.parse(files, takenAt);
          },
        }),
    ...(process.env.IDV_PORT_CHANGESSCREENER === 'absent'
      ? {}
      : { changesScreener: (): ChangesScreener => (changes) => new FileScreener(changes.map((c) => ({ list: c.list, asOf: c.asOf, entries: c.changed }))) }),
    ...(process.env.IDV_PORT_SCREENER === 'absent'
      ? {}
      : { screener: () => local?.screener ?? (snapshots ? new SnapshotScreener(snapshots(), (all) => new FileScreener(all)) : undefined) }),
  };
}

/** The ports kept in the table (DynamoDB). */
function tableFactories(doc: DynamoDBDocumentClient, table: string): Partial<Factories> {
  return {
    verifications: process.env.IDV_PORT_VERIFICATIONS === 'absent' ? undefined : () => new DynamoVerificationRepository(doc, table),
    documents: process.env.IDV_PORT_DOCUMENTS === 'absent' ? undefined : () => new DynamoDocumentRepository(doc, table),
    flows: process.env.IDV_PORT_FLOWS === 'absent' ? undefined : () => new DynamoFlowRepository(doc, table),
    tokens: process.env.IDV_PORT_TOKENS === 'absent' ? undefined : () => new DynamoTokenRepository(doc, table),
    idempotency: process.env.IDV_PORT_IDEMPOTENCY === 'absent' ? undefined : () => new DynamoIdempotencyStore(doc, table),
    extractionCache: process.env.IDV_PORT_EXTRACTIONCACHE === 'absent' ? undefined : () => new DynamoExtractionCache(doc, table),
    documentIndex: process.env.IDV_PORT_DOCUMENTINDEX === 'absent' ? undefined : () => new DynamoDocumentIndex(doc, table),
    faceIndex: process.env.IDV_PORT_FACEINDEX === 'absent' ? undefined : () => new DynamoFaceIndex(doc, table),
    liveness: process.env.IDV_PORT_LIVENESS === 'absent' ? undefined : () => new DynamoLivenessChallenges(doc, table),
    faceLivenessSessions: process.env.IDV_PORT_FACELIVENESSSESSIONS === 'absent' ? undefined : () => new DynamoFaceLivenessSessions(doc, table),
    receipts: process.env.IDV_PORT_RECEIPTS === 'absent' ? undefined : () => new DynamoReceiptRepository(doc, table),
    screenings: process.env.IDV_PORT_SCREENINGS === 'absent' ? undefined : () => new DynamoScreeningStore(doc, table),
    outbox: process.env.IDV_PORT_OUTBOX === 'absent' ? undefined : () => new DynamoOutbox(doc, table),
    webhooks: process.env.IDV_PORT_WEBHOOKS === 'absent' ? undefined : () => new DynamoWebhookRepository(doc, table),
    imageReferences: process.env.IDV_PORT_IMAGEREFERENCES === 'absent' ? undefined : () => new DynamoImageReferences(doc, table),
    probes: process.env.IDV_PORT_PROBES === 'absent' ? undefined : () => [new DynamoTableProbe(doc, table)],
  };
}

/**
 * The extractors, each loading its engines (or SDK clients) on its first document. A bundle holds
 * only the extractors its stack chose (IDV_LOADS_TEXTRACT, IDV_LOADS_OFFLINE: src/clients.ts
 * EXTRACTOR_LOADS); a setting that names another fails here, on the cold start, not at extraction.
 */
function extractorFactories(config: Config, blobs: () => BlobStore): Partial<Factories> {
  const named: Partial<Record<ExtractorName, () => Extractor>> = {
    ...(process.env.IDV_LOADS_TEXTRACT === 'absent'
      ? {}
      : {
          aws: () =>
            lazyExtractor('aws', async () => {
              const { textract, rekognition } = extractionClients(config);
              return new TextractExtractor(textract, rekognition, required(config.BUCKET_NAME, 'BUCKET_NAME'));
            }),
        }),
    // The offline engines (native and wasm modules, models) load on the first document, never on a cold start.
    ...(process.env.IDV_LOADS_OFFLINE === 'absent'
      ? {}
      : {
          offline: () =>
            lazyExtractor('offline', async () => {
              const engines = await import('./adapters/offline/engines');
              const { OfflineExtractor } = await import('./adapters/offline/extractor');
              return new OfflineExtractor(blobs(), { sharp: engines.sharpModule, paddle: engines.paddle, tesseract: engines.tesseract, zxing: engines.zxing, pdfText: engines.pdfText, faces: engines.faces, presentation: engines.presentation });
            }),
        }),
  };
  const chosen = config.EXTRACTORS.split(',').filter(Boolean) as ExtractorName[];
  const missing = [...(config.EXTRACTOR === 'sandbox' ? [] : [config.EXTRACTOR]), ...chosen].filter((name) => !named[name]);
  if (missing.length > 0) {
    throw new Error(`EXTRACTOR/EXTRACTORS name an extractor this function's bundle leaves out (${[...new Set(missing)].join(', ')}): the stack bundles those its extractor and its flows name (lib/workflow.ts extractionFunctionProps)`);
  }
  const make = (name: ExtractorName): Extractor => (named[name] as () => Extractor)();
  const extractor = once((): Extractor => (config.EXTRACTOR === 'sandbox' ? new SandboxExtractor(blobs()) : make(config.EXTRACTOR)));
  return {
    extractor,
    // The sandbox reads what its frames say; the offline engines observe them (loaded on the first challenge); without either
    // (Textract alone) a challenge's selfie is not evaluated, never passed.
    livenessObserver: () =>
      config.EXTRACTOR === 'sandbox'
        ? new SandboxLivenessObserver(blobs())
        : process.env.IDV_LOADS_OFFLINE !== 'absent' && (config.EXTRACTOR === 'offline' || chosen.includes('offline'))
          ? lazyLivenessObserver('offline', async () => new (await import('./adapters/offline/liveness-observer')).OfflineLivenessObserver(blobs()))
          : null,
    extractors: () => {
      const extractors: Partial<Record<ExtractorName, Extractor>> = {};
      for (const name of chosen) extractors[name] = name === extractor().name ? extractor() : make(name);
      return extractors;
    },
  };
}

/**
 * A liveness observer whose module (for the offline one, the face models too) is loaded on its
 * first challenge. It hands the observer everything it is given: without the challenge's steps the
 * offline observer reads eyes (the iris model) on every frame, not only around the blinks; without
 * the portrait, no portrait descriptor comes back.
 */
export function lazyLivenessObserver(name: string, load: () => Promise<LivenessObserver>): LivenessObserver {
  let instance: Promise<LivenessObserver> | undefined;
  return {
    name,
    observe: async (frames, steps, portrait) => (await (instance ??= load())).observe(frames, steps, portrait),
  };
}

/** How to build a port; a port whose client this bundle leaves out has none (bundleDefines). */
function factory<K extends keyof Deps>(f: Partial<Factories>, name: K): Factories[K] {
  const make = f[name];
  if (!make) throw new Error(`port '${name}' is not in this function's bundle: declare it in its route (src/http/routes.ts) or entry (src/entries.ts)`);
  return make as Factories[K];
}

function port<K extends keyof Deps>(f: Partial<Factories>, name: K): Deps[K] {
  if (!built.has(name)) built.set(name, factory(f, name)());
  return built.get(name) as Deps[K];
}

function readAhead(f: Partial<Factories>, name: keyof Deps): Promise<void> {
  if (built.has(name)) return Promise.resolve();
  let read = reading.get(name);
  if (!read) {
    read = Promise.resolve(factory(f, name)()).then(
      (value) => {
        built.set(name, value);
        reading.delete(name);
      },
      (error: unknown) => {
        reading.delete(name);
        throw error;
      },
    );
    reading.set(name, read);
  }
  return read;
}

/**
 * A view holding only the named ports, each built when first read: reading any other port of Deps
 * throws, so a use case that reaches for a dependency its route (or function) does not declare
 * fails at once, in tests too.
 */
function view<K extends keyof Deps>(f: Partial<Factories>, names: readonly K[]): Pick<Deps, K> {
  const target = {} as Pick<Deps, K>;
  for (const name of names) Object.defineProperty(target, name, { enumerable: true, get: () => port(f, name) });
  const all = Object.keys(f) as string[];
  return new Proxy(target, {
    get(obj, prop, receiver) {
      if (typeof prop === 'string' && !Object.hasOwn(obj, prop) && all.includes(prop)) {
        throw new Error(`Undeclared dependency '${prop}': add it to the needs of this function's route (src/http/routes.ts)`);
      }
      return Reflect.get(obj, prop, receiver);
    },
  });
}

/** Every port, none built (the compiler holds the keys to Deps), so that a view of none still refuses each one. */
const NO_FACTORIES: Record<keyof Deps, undefined> = {
  imageInventory: undefined, imageReferences: undefined,
  verifications: undefined, documents: undefined, flows: undefined, blobs: undefined, workflow: undefined, tokens: undefined, idempotency: undefined,
  reports: undefined, extractor: undefined, extractors: undefined, extractionCache: undefined, documentIndex: undefined, faceIndex: undefined,
  liveness: undefined, livenessObserver: undefined, faceLiveness: undefined, faceLivenessSessions: undefined, faceLivenessMinConfidence: undefined, faceLivenessCapture: undefined, screener: undefined, screenings: undefined, screeningSnapshots: undefined, sourceFetcher: undefined, snapshotParser: undefined, changesScreener: undefined,
  receipts: undefined, receiptSigner: undefined, documentFingerprints: undefined, events: undefined, outbox: undefined, webhooks: undefined,
  deliveries: undefined, webhookSender: undefined, webhookRetry: undefined, webhookPolicy: undefined, ruleThresholds: undefined, clock: undefined,
  ids: undefined, sessionSecret: undefined, publicBaseUrl: undefined, usageKeys: undefined, deletedRetentionDays: undefined, metrics: undefined,
  probes: undefined,
};

/**
 * The named ports of this process, in a view that holds only them. Nothing is built ahead: config
 * is validated once per cold start, an adapter (and the SDK client behind it) is created when first
 * read, and the session secret is read from Secrets Manager only for a function that names it.
 * Every function names its ports: API functions from their route, the others in their entry file.
 */
export async function getDeps<K extends keyof Deps>(names: readonly K[]): Promise<Pick<Deps, K>> {
  // A function that uses no port (the caller, the console's files) is given no configuration to check;
  // its view still refuses every port.
  if (names.length === 0) return view(NO_FACTORIES, names);
  if (!factories) factories = createFactories();
  const f = factories;
  await Promise.all(names.filter((name) => ASYNC_PORTS.has(name)).map((name) => readAhead(f, name)));
  const key = names.join(',');
  let v = views.get(key) as Pick<Deps, K> | undefined;
  if (!v) {
    v = view(f, names);
    views.set(key, v);
  }
  return v;
}
