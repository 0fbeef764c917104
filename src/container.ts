import { DynamoDocumentRepository } from './adapters/dynamodb/document-repository';
import { DynamoExtractionCache } from './adapters/dynamodb/extraction-cache';
import { DynamoFlowRepository } from './adapters/dynamodb/flow-repository';
import { DynamoIdempotencyStore } from './adapters/dynamodb/idempotency-store';
import { DynamoOutbox } from './adapters/dynamodb/outbox';
import { DynamoTableProbe } from './adapters/dynamodb/table-probe';
import { DynamoTokenRepository } from './adapters/dynamodb/token-repository';
import { DynamoVerificationRepository } from './adapters/dynamodb/verification-repository';
import { DynamoWebhookRepository } from './adapters/dynamodb/webhook-repository';
import { EventBridgePublisher } from './adapters/eventbridge/event-publisher';
import { HttpWebhookSender } from './adapters/http/webhook-sender';
import { SystemClock, UlidGenerator } from './adapters/ids';
import { S3BlobStore } from './adapters/s3/blob-store';
import { loadSessionSecret } from './adapters/secrets/session-secret';
import { SandboxExtractor } from './adapters/sandbox/extractor';
import { SfnWorkflowStarter } from './adapters/sfn/workflow-starter';
import { SqsDeliveryQueue } from './adapters/sqs/delivery-queue';
import type { Deps } from './app/deps';
import { createClients, extractionClients } from './clients';
import * as v from 'valibot';
import ruleThresholds from '../config/rules.json';
import { loadConfig } from './config';
import type { ExtractorName } from './domain/flow';
import { RuleThresholdsSchema } from './domain/rules';
import { logger } from './logger';
import type { EventPublisher } from './ports/event-publisher';
import type { Extractor } from './ports/extractor';
import type { DeliveryQueue } from './ports/webhooks';
import type { WorkflowStarter } from './ports/workflow-starter';

let deps: Promise<Deps> | undefined;

/** What the local runtime runs in process instead of Step Functions, EventBridge and SQS. */
export interface LocalAdapters {
  workflow: WorkflowStarter;
  events: EventPublisher;
  deliveries: DeliveryQueue;
}
let local: LocalAdapters | undefined;

/**
 * The local runtime supplies its in-process adapters here (RUNTIME=local), so that Lambda bundles
 * never contain them.
 */
export function useLocalAdapters(adapters: LocalAdapters): void {
  local = adapters;
  deps = undefined;
}

/** A stand-in for an adapter this function was not configured for: fails loudly if ever used. */
function notConfigured(setting: string): never {
  throw new Error(`${setting} is not set for this function`);
}

/** An extractor whose module (and SDK clients) load on first use. */
function lazyExtractor(name: string, load: () => Promise<Extractor>): Extractor {
  let instance: Promise<Extractor> | undefined;
  return {
    name,
    extract: async (input) => (await (instance ??= load())).extract(input),
  };
}

async function build(): Promise<Deps> {
  const config = loadConfig(process.env);
  const clients = createClients(config);
  const table = config.TABLE_NAME;
  let adapters: LocalAdapters;
  if (config.RUNTIME === 'local') {
    if (!local) throw new Error('RUNTIME=local needs the local runtime (npm start) to supply its adapters');
    adapters = local;
  } else {
    adapters = {
      workflow:
        config.WORKFLOW === 'stepfunctions'
          ? new SfnWorkflowStarter(clients.sfn, config.STATE_MACHINE_ARN ?? '')
          : { start: async () => notConfigured('STATE_MACHINE_ARN'), state: async () => notConfigured('STATE_MACHINE_ARN') },
      events: config.EVENT_BUS_NAME ? new EventBridgePublisher(clients.eventBridge, config.EVENT_BUS_NAME) : { publish: async () => notConfigured('EVENT_BUS_NAME') },
      deliveries:
        config.DELIVERY_QUEUE_URL && config.DEAD_LETTER_QUEUE_URL
          ? new SqsDeliveryQueue(clients.sqs, config.DELIVERY_QUEUE_URL, config.DEAD_LETTER_QUEUE_URL)
          : { enqueue: async () => notConfigured('DELIVERY_QUEUE_URL'), deadLetter: async () => notConfigured('DEAD_LETTER_QUEUE_URL') },
    };
  }
  const isLocal = config.RUNTIME === 'local';
  const sessionSecret = config.SESSION_SECRET
    ? Buffer.from(config.SESSION_SECRET, 'utf8')
    : await loadSessionSecret(clients.secrets, config.SESSION_SECRET_ARN ?? '');
  const blobs = new S3BlobStore(clients.s3, clients.s3Presign, config.BUCKET_NAME, logger);
  const named: Record<ExtractorName, () => Extractor> = {
    aws: () =>
      lazyExtractor('aws', async () => {
        const { textract, rekognition } = await extractionClients(config);
        return new (await import('./adapters/textract/extractor')).TextractExtractor(textract, rekognition, config.BUCKET_NAME);
      }),
    // The offline engines (native and wasm modules, models) load on the first document, never on a cold start.
    offline: () =>
      lazyExtractor('offline', async () => {
        const engines = await import('./adapters/offline/engines');
        const { OfflineExtractor } = await import('./adapters/offline/extractor');
        return new OfflineExtractor(blobs, { sharp: engines.sharpModule, paddle: engines.paddle, tesseract: engines.tesseract, zxing: engines.zxing, pdfText: engines.pdfText, faces: engines.faces });
      }),
  };
  const extractor: Extractor = config.EXTRACTOR === 'sandbox' ? new SandboxExtractor(blobs) : named[config.EXTRACTOR]();
  const extractors: Partial<Record<ExtractorName, Extractor>> = {};
  for (const name of config.EXTRACTORS.split(',').filter(Boolean) as ExtractorName[]) extractors[name] = name === extractor.name ? extractor : named[name]();
  return {
    verifications: new DynamoVerificationRepository(clients.doc, table),
    documents: new DynamoDocumentRepository(clients.doc, table),
    flows: new DynamoFlowRepository(clients.doc, table),
    tokens: new DynamoTokenRepository(clients.doc, table),
    idempotency: new DynamoIdempotencyStore(clients.doc, table),
    blobs,
    extractor,
    extractors,
    extractionCache: new DynamoExtractionCache(clients.doc, table),
    ...adapters,
    outbox: new DynamoOutbox(clients.doc, table),
    webhooks: new DynamoWebhookRepository(clients.doc, table),
    webhookSender: new HttpWebhookSender({ timeoutMs: 10_000, allowLoopback: isLocal, requireHttps: !isLocal }),
    webhookRetry: { baseSeconds: config.WEBHOOK_RETRY_BASE_SECONDS, maxDelaySeconds: 900, maxAgeSeconds: config.WEBHOOK_MAX_AGE_SECONDS },
    webhookPolicy: { requireHttps: !isLocal },
    ruleThresholds: v.parse(RuleThresholdsSchema, ruleThresholds),
    // pdf-lib, sharp and pdf.js are loaded only by the function that renders reports; deployed, that
    // function is its own Lambda, locally each report is drawn in a worker thread beside the API.
    reports: async () =>
      isLocal
        ? new (await import('./adapters/pdf/worker-renderer')).WorkerReportRenderer(undefined, logger)
        : new (await import('./adapters/pdf/report-renderer')).PdfLibReportRenderer(),
    clock: new SystemClock(),
    ids: new UlidGenerator(),
    sessionSecret,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    deletedRetentionDays: config.DELETED_RETENTION_DAYS,
    probes: [new DynamoTableProbe(clients.doc, table)],
  };
}

/** The dependencies of this container, built once (config validated, clients created, secret read). */
export function getDeps(): Promise<Deps> {
  deps ??= build().catch((error: unknown) => {
    deps = undefined;
    throw error;
  });
  return deps;
}
