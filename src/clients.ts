import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SFNClient } from '@aws-sdk/client-sfn';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SQSClient } from '@aws-sdk/client-sqs';
import { documentClient } from './adapters/dynamodb/document-client';
import type { Config } from './config';
import { ServiceUnavailableError } from './domain/errors';
import type { ExtractorName } from './domain/flow';
import type { Port } from './http/routes';

/** The AWS SDK clients behind the ports, and the modules only some ports load (extraction engines, PDF reports). */
export type BundlePart = 'dynamodb' | 's3' | 'sfn' | 'eventbridge' | 'sqs' | 'secrets' | 'extractors' | 'reports' | 'metrics';
export const BUNDLE_PARTS: readonly BundlePart[] = ['dynamodb', 's3', 'sfn', 'eventbridge', 'sqs', 'secrets', 'extractors', 'reports', 'metrics'];

/** What each port's adapter reaches (ports not listed reach none of them). */
export const PORT_PARTS: Partial<Record<Port, readonly BundlePart[]>> = {
  verifications: ['dynamodb'],
  documents: ['dynamodb'],
  flows: ['dynamodb'],
  tokens: ['dynamodb'],
  idempotency: ['dynamodb'],
  extractionCache: ['dynamodb'],
  documentIndex: ['dynamodb'],
  faceIndex: ['dynamodb'],
  receipts: ['dynamodb'],
  // The KMS signer borrows the table client's credentials.
  receiptSigner: ['dynamodb'],
  documentFingerprints: ['dynamodb'],
  outbox: ['dynamodb'],
  webhooks: ['dynamodb'],
  probes: ['dynamodb'],
  blobs: ['s3'],
  extractor: ['s3', 'extractors'],
  extractors: ['s3', 'extractors'],
  reports: ['reports'],
  workflow: ['sfn'],
  events: ['eventbridge'],
  deliveries: ['sqs'],
  sessionSecret: ['secrets'],
  metrics: ['metrics'],
};

/** Ports whose adapters src/container.ts guards one by one (`IDV_PORT_<PORT>`). */
const GUARDED_PORTS: readonly Port[] = ['verifications', 'documents', 'flows', 'tokens', 'idempotency', 'extractionCache', 'outbox', 'webhooks', 'probes', 'webhookSender', 'documentIndex', 'faceIndex', 'receipts', 'receiptSigner', 'documentFingerprints', 'usageKeys', 'ids', 'ruleThresholds'];

/** The parts a function with these ports reaches. */
export const partsOf = (ports: readonly Port[]): BundlePart[] => BUNDLE_PARTS.filter((c) => ports.some((p) => PORT_PARTS[p]?.includes(c)));

/**
 * What the bundler substitutes in a function's bundle: `process.env.IDV_BUNDLE_<PART>` is "absent"
 * for each part its ports never reach (and `IDV_PORT_<PORT>` for each guarded port it does not name), so that the guarded factories here and in src/container.ts
 * fold away and the SDK packages and modules behind them are left out of the bundle (each function
 * carries only the SDK code it uses: `npm run bench` measures it against that floor). Unset (tests,
 * npm start): every part is there.
 */
export function bundleDefines(ports: readonly Port[]): Record<string, string> {
  const used = partsOf(ports);
  const absent = [
    ...BUNDLE_PARTS.filter((c) => !used.includes(c)).map((c) => `IDV_BUNDLE_${c.toUpperCase()}`),
    // Adapters one by one too, where a port's own code is worth leaving out (src/container.ts).
    ...GUARDED_PORTS.filter((p) => !ports.includes(p)).map((p) => `IDV_PORT_${p.toUpperCase()}`),
  ];
  // A Lambda bundle never runs under npm start (which runs the sources): the local runtime's own adapters fold away.
  absent.push('IDV_BUNDLE_LOCAL');
  return Object.fromEntries(absent.map((name) => [`process.env.${name}`, '"absent"']));
}

/** Stands in for a client left out of this bundle: reaching it means a port was used without being declared. */
export function notBundled(client: BundlePart): () => never {
  return () => {
    throw new Error(`the ${client} client is not in this function's bundle: declare the port that uses it (src/http/routes.ts or src/entries.ts)`);
  };
}

/**
 * Heavy modules that only some functions load. The CDK stack leaves them out of the bundles of every
 * other function (lib/service-function.ts), so they must only be reached through import(), or through
 * a static import that folds away where the bundle leaves their port out (bundleDefines): a static
 * import tree-shakes, an import() takes all of the package (every command and its schemas).
 */
export const OPTIONAL_MODULES = ['pdf-lib', '@aws-sdk/client-textract', '@aws-sdk/client-rekognition', 'mrz'] as const;
export type OptionalModule = (typeof OPTIONAL_MODULES)[number];

/**
 * The loaded module that says a function carries an extractor's code: the Textract client for the
 * aws extractor, the MRZ parser for the offline one (lib/workflow.ts extractionFunctionProps). A
 * stack chooses its extractors at synth (its `extractor` and the flows'), so the extraction
 * functions bundle only those: `IDV_LOADS_<NAME>` is "absent" for each other one, and src/container.ts
 * refuses, on the cold start, a setting that names an extractor its bundle left out.
 */
export const EXTRACTOR_LOADS = { aws: '@aws-sdk/client-textract', offline: 'mrz' } as const satisfies Record<ExtractorName, OptionalModule>;

/** What the bundler substitutes for the optional modules a function does not load (see EXTRACTOR_LOADS). */
export function loadDefines(loads: readonly OptionalModule[]): Record<string, string> {
  const absent = (Object.keys(EXTRACTOR_LOADS) as ExtractorName[]).filter((name) => !loads.includes(EXTRACTOR_LOADS[name]));
  return Object.fromEntries(absent.map((name) => [`process.env.IDV_LOADS_${name === 'aws' ? 'TEXTRACT' : name.toUpperCase()}`, '"absent"']));
}

/**
 * DynamoDB requests counted by an SDK middleware when IDV_DYNAMODB_METRICS=true (the benchmark, which
 * runs the local runtime: Lambda bundles leave it out):
 * requests per command, items read, and the capacity DynamoDB reports.
 */
export const dynamoMetrics = {
  /** Off while the benchmark measures throughput: the figures are then the service's, not the instrumented service's. */
  counting: true,
  requests: 0,
  byCommand: {} as Record<string, number>,
  itemsRead: 0,
  capacityUnits: 0,
  reset(): void {
    this.requests = 0;
    this.byCommand = {};
    this.itemsRead = 0;
    this.capacityUnits = 0;
  },
};

function countRequests(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!dynamoMetrics.counting) return next(args);
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      dynamoMetrics.requests++;
      const name = context.commandName ?? 'unknown';
      dynamoMetrics.byCommand[name] = (dynamoMetrics.byCommand[name] ?? 0) + 1;
      const result = await next(args);
      const out = result.output as {
        ScannedCount?: number;
        Item?: unknown;
        Responses?: Record<string, unknown[]>;
        ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
      };
      dynamoMetrics.itemsRead += out.ScannedCount ?? (out.Item ? 1 : 0) + Object.values(out.Responses ?? {}).reduce((n, r) => n + r.length, 0);
      const consumed = Array.isArray(out.ConsumedCapacity) ? out.ConsumedCapacity : out.ConsumedCapacity ? [out.ConsumedCapacity] : [];
      dynamoMetrics.capacityUnits += consumed.reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
      return result;
    },
    { step: 'initialize', name: 'idvRequestCounter' },
  );
}

/** Error names AWS uses for throttling and temporary unavailability. */
const UNAVAILABLE = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'SlowDown',
  'ServiceUnavailable',
  'InternalServerError',
  'RequestTimeout',
]);

/** Socket-level failures: the service could not be reached at all (stopped, restarting, network down). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED']);

/** True when an SDK error means "the service cannot answer now", as opposed to "the request is wrong". */
export function isUnavailable(error: unknown): boolean {
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  if (UNAVAILABLE.has(e?.name ?? '')) return true;
  if (e?.name === 'TimeoutError' || UNREACHABLE.has(e?.code ?? '')) return true;
  // The SDK's retry layer wraps what it does not recognise as an Error (e.g. from another realm) into a message only.
  const code = /^AWS SDK error wrapper for .*\b(E[A-Z_]+)\b/.exec((error as Error)?.message ?? '')?.[1];
  if (code && UNREACHABLE.has(code)) return true;
  const status = e?.$metadata?.httpStatusCode;
  return status !== undefined && status >= 500;
}

/**
 * Once the SDK's own retries are exhausted, throttling, 5xx answers and unreachable endpoints
 * surface as the domain's ServiceUnavailableError (a clear 503), never as an unknown error.
 */
export function translateUnavailable(client: { middlewareStack: DynamoDBClient['middlewareStack'] }): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (isUnavailable(error)) throw new ServiceUnavailableError();
        throw error;
      }
    },
    { step: 'initialize', name: 'idvTranslateUnavailable', priority: 'high' },
  );
}

/** Explicit credentials (the local runtime's generated ones); deployed, the SDK's default chain (the function's role). */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * The SDK clients' logger: the SDK's default (a no-op) without `info`. After every request the SDK's
 * logger middleware calls `logger?.info?.({ input: filter(input), output: filter(output) })`; with a
 * no-op `info` it still walks every request and response to mask sensitive fields for a line nobody
 * writes (4 % of the local front's CPU under Get Verification's load, a Lambda's per request too).
 * Without `info` the call is skipped with its arguments. Debug, warnings and errors are dropped, as the
 * default drops them; the service logs what a failure means where it handles it.
 */
export const SDK_LOGGER = { trace() {}, debug() {}, warn() {}, error() {} } as unknown as NonNullable<DynamoDBClientConfig['logger']>;

/** A value built on first use, then kept for the life of the process. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * The only place that knows endpoints: each SDK client is built on first use, once per process, so
 * a function creates only the clients its adapters actually reach (`/health` never builds S3).
 */
export function createClients(config: Config, credentials?: AwsCredentials) {
  const region = config.AWS_REGION;
  // Every client's logger and credentials (a copy: the SDK annotates the credentials object it is given).
  const common = { logger: SDK_LOGGER, ...(credentials && { credentials: { ...credentials } }) };
  const dynamo = process.env.IDV_BUNDLE_DYNAMODB === 'absent' ? notBundled('dynamodb') : once(() => {
    const client = new DynamoDBClient({ region, ...common, ...(config.DYNAMODB_ENDPOINT && { endpoint: config.DYNAMODB_ENDPOINT }) });
    // The benchmark counts requests in the local runtime; a Lambda bundle leaves the counter out.
    if (process.env.IDV_BUNDLE_LOCAL !== 'absent' && config.IDV_DYNAMODB_METRICS === 'true') countRequests(client);
    translateUnavailable(client);
    return client;
  });
  const doc = process.env.IDV_BUNDLE_DYNAMODB === 'absent' ? notBundled('dynamodb') : once(() => documentClient(dynamo()));
  const s3Options = {
    region,
    ...common,
    // Checksums only where S3 requires them: the local S3 server stores streamed checksummed uploads corrupted.
    requestChecksumCalculation: 'WHEN_REQUIRED' as const,
    responseChecksumValidation: 'WHEN_REQUIRED' as const,
    forcePathStyle: Boolean(config.S3_ENDPOINT),
  };
  const s3 = process.env.IDV_BUNDLE_S3 === 'absent' ? notBundled('s3') : once(() => {
    const client = new S3Client({ ...s3Options, ...(config.S3_ENDPOINT && { endpoint: config.S3_ENDPOINT }) });
    translateUnavailable(client as never);
    return client;
  });
  const s3Presign = process.env.IDV_BUNDLE_S3 === 'absent' ? notBundled('s3') : once(() => (config.S3_PUBLIC_ENDPOINT ? new S3Client({ ...s3Options, endpoint: config.S3_PUBLIC_ENDPOINT }) : s3()));
  const sfn = process.env.IDV_BUNDLE_SFN === 'absent' ? notBundled('sfn') : once(() => new SFNClient({ region, ...common }));
  const eventBridge = process.env.IDV_BUNDLE_EVENTBRIDGE === 'absent' ? notBundled('eventbridge') : once(() => new EventBridgeClient({ region, ...common }));
  const sqs = process.env.IDV_BUNDLE_SQS === 'absent' ? notBundled('sqs') : once(() => new SQSClient({ region, ...common }));
  const secrets = process.env.IDV_BUNDLE_SECRETS === 'absent' ? notBundled('secrets') : once(() => new SecretsManagerClient({ region, ...common }));
  return {
    get dynamo() {
      return dynamo();
    },
    get doc() {
      return doc();
    },
    get s3() {
      return s3();
    },
    get s3Presign() {
      return s3Presign();
    },
    get sfn() {
      return sfn();
    },
    get eventBridge() {
      return eventBridge();
    },
    get sqs() {
      return sqs();
    },
    get secrets() {
      return secrets();
    },
  };
}
