import { AsyncLocalStorage } from 'node:async_hooks';
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
import type { Port } from './app/deps';

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
  liveness: ['dynamodb'],
  faceLivenessSessions: ['dynamodb'],
  screenings: ['dynamodb'],
  receipts: ['dynamodb'],
  // The KMS signer borrows the table client's credentials.
  receiptSigner: ['dynamodb'],
  documentFingerprints: ['dynamodb'],
  outbox: ['dynamodb'],
  webhooks: ['dynamodb'],
  probes: ['dynamodb'],
  blobs: ['s3'],
  imageInventory: ['s3'],
  // Sanctions screening's snapshots, read from the screening bucket.
  screener: ['s3'],
  screeningSnapshots: ['s3'],
  imageReferences: ['dynamodb'],
  extractor: ['s3', 'extractors'],
  extractors: ['s3', 'extractors'],
  livenessObserver: ['s3', 'extractors'],
  reports: ['reports'],
  workflow: ['sfn'],
  events: ['eventbridge'],
  deliveries: ['sqs'],
  sessionSecret: ['secrets'],
  metrics: ['metrics'],
};

/** Ports whose adapters src/container.ts guards one by one (`IDV_PORT_<PORT>`). */
const GUARDED_PORTS: readonly Port[] = ['verifications', 'documents', 'flows', 'tokens', 'idempotency', 'extractionCache', 'outbox', 'webhooks', 'probes', 'webhookSender', 'documentIndex', 'faceIndex', 'liveness', 'receipts', 'receiptSigner', 'documentFingerprints', 'usageKeys', 'ids', 'ruleThresholds', 'imageInventory', 'imageReferences', 'screener', 'screenings', 'screeningSnapshots', 'sourceFetcher', 'snapshotParser', 'changesScreener', 'faceLiveness', 'faceLivenessSessions'];

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
  // A call cut short: by the attempt or connection timeouts below (TimeoutError), or by an abort signal.
  'TimeoutError',
  'AbortError',
]);

/** Socket-level failures: the service could not be reached at all (stopped, restarting, network down). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED']);

/** True when an SDK error means "the service cannot answer now", as opposed to "the request is wrong". */
export function isUnavailable(error: unknown): boolean {
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  if (UNAVAILABLE.has(e?.name ?? '') || UNREACHABLE.has(e?.code ?? '')) return true;
  // The SDK's retry layer wraps what it does not recognise as an Error (e.g. from another realm) into a message only.
  const code = /^AWS SDK error wrapper for .*\b(E[A-Z_]+)\b/.exec((error as Error)?.message ?? '')?.[1];
  if (code && UNREACHABLE.has(code)) return true;
  const status = e?.$metadata?.httpStatusCode;
  return status !== undefined && status >= 500;
}

type Stack = { middlewareStack: DynamoDBClient['middlewareStack'] };

/**
 * Once the SDK's own retries are exhausted, throttling, 5xx answers, timeouts and unreachable
 * endpoints surface as the domain's ServiceUnavailableError (a clear 503), never as an unknown error.
 */
export function translateUnavailable(client: Stack): void {
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

/** The SDK clients the service builds, each with its own limits (CALL_LIMITS). */
export type SdkService = 'dynamodb' | 's3' | 'sfn' | 'eventbridge' | 'sqs' | 'secrets' | 'textract' | 'rekognition' | 'faceLiveness';

/**
 * How long one SDK call may take. Without these a stalled backing service (a frozen DynamoDB, a
 * black-holed connection) holds the request until API Gateway gives up at 29 s and the Lambda
 * after it, and whatever the call wrote may still land later: with them each call ends, answered
 * or as a ServiceUnavailableError (503), within `callBudgetMs`.
 */
export interface CallLimits {
  /** To open the connection (TCP and TLS). */
  connectionMs: number;
  /**
   * One attempt, from sending it (waiting for a pooled socket and connecting included) to its
   * answer read; a body that stops half way is cut after this much silence too.
   */
  attemptMs: number;
  /** Attempts in all (the first and the retries), each of a retryable failure: timeout, throttling, 5xx, reset. */
  maxAttempts: number;
  /** Upper bound of the random pause before retry n (index n - 1): "full jitter", bounded so that the budget is. */
  backoffCapsMs: readonly number[];
}

/**
 * The limits of each client. DynamoDB answers a request path's reads and writes in milliseconds:
 * 1.5 s is far above its normal latency (DynamoDB Local on a loaded machine included) and three of
 * them still give an answer in under 5 s. S3 moves images (a few MB at most on a request path).
 * Step Functions, EventBridge, SQS and Secrets Manager answer small JSON calls. Textract and
 * Rekognition analyse an image per call (seconds) and run only in the workflow's functions.
 */
export const CALL_LIMITS: Record<SdkService, CallLimits> = {
  dynamodb: { connectionMs: 1000, attemptMs: 1500, maxAttempts: 3, backoffCapsMs: [100, 200] },
  s3: { connectionMs: 1000, attemptMs: 4000, maxAttempts: 2, backoffCapsMs: [200] },
  sfn: { connectionMs: 1000, attemptMs: 2000, maxAttempts: 3, backoffCapsMs: [100, 200] },
  eventbridge: { connectionMs: 1000, attemptMs: 2000, maxAttempts: 3, backoffCapsMs: [100, 200] },
  sqs: { connectionMs: 1000, attemptMs: 2000, maxAttempts: 3, backoffCapsMs: [100, 200] },
  secrets: { connectionMs: 1000, attemptMs: 2000, maxAttempts: 3, backoffCapsMs: [100, 200] },
  textract: { connectionMs: 1000, attemptMs: 15_000, maxAttempts: 3, backoffCapsMs: [500, 1000] },
  rekognition: { connectionMs: 1000, attemptMs: 10_000, maxAttempts: 3, backoffCapsMs: [500, 1000] },
  // Face Liveness: small JSON calls (create a session, read its result) on a widget request path: 9.6 s at most, inside REQUEST_BUDGET_MS.
  faceLiveness: { connectionMs: 1000, attemptMs: 3000, maxAttempts: 3, backoffCapsMs: [200, 400] },
};

/** The longest one call of this client can take before it answers or fails: every attempt timing out, every pause at its cap. */
export function callBudgetMs(service: SdkService): number {
  const l = CALL_LIMITS[service];
  return l.maxAttempts * l.attemptMs + l.backoffCapsMs.slice(0, l.maxAttempts - 1).reduce((a, b) => a + b, 0);
}

/** When the request being served must have its answer: SDK calls made for it end by then. */
const deadlines = new AsyncLocalStorage<number>();

type RetryStrategyV2 = Extract<NonNullable<DynamoDBClientConfig['retryStrategy']>, { acquireInitialRetryToken: unknown }>;
type RetryToken = Awaited<ReturnType<RetryStrategyV2['acquireInitialRetryToken']>>;
type RetryErrorInfo = Parameters<RetryStrategyV2['refreshRetryTokenForRetry']>[1];

/** Retries cost tokens from a per-client pool refilled by successes, as the SDK's standard mode does: a long outage soon stops retrying. */
const RETRY_POOL = 500;
const RETRY_COST = 5;
const TIMEOUT_RETRY_COST = 10;

/**
 * The SDK's standard retry, bounded: at most `maxAttempts`, pauses drawn below `backoffCapsMs`
 * and never stretched by a server's Retry-After (the SDK's own strategy would add up to 5 s per
 * pause), so that `callBudgetMs` holds.
 */
export class BoundedRetryStrategy implements RetryStrategyV2 {
  readonly mode = 'standard';
  private pool = RETRY_POOL;

  constructor(
    private readonly limits: CallLimits,
    private readonly random: () => number = Math.random,
  ) {}

  async acquireInitialRetryToken(): Promise<RetryToken> {
    return retryToken(0, 0, 0);
  }

  async refreshRetryTokenForRetry(token: RetryToken, errorInfo: RetryErrorInfo): Promise<RetryToken> {
    const retries = token.getRetryCount() + 1;
    const retryable = errorInfo.errorType === 'TRANSIENT' || errorInfo.errorType === 'THROTTLING';
    const cost = (errorInfo.error as { name?: string } | undefined)?.name === 'TimeoutError' ? TIMEOUT_RETRY_COST : RETRY_COST;
    const delay = Math.floor(this.random() * (this.limits.backoffCapsMs[retries - 1] ?? 0));
    // No retry after the request's budget is spent: nothing is sent for a request already answered 503.
    const until = deadlines.getStore();
    const late = until !== undefined && Date.now() + delay >= until;
    if (!retryable || retries >= this.limits.maxAttempts || this.pool < cost || late) throw new Error('no retry');
    this.pool -= cost;
    return retryToken(retries, delay, cost);
  }

  recordSuccess(token: RetryToken): void {
    this.pool = Math.min(RETRY_POOL, this.pool + ((token as { cost?: number }).cost || 1));
  }
}

const retryToken = (count: number, delay: number, cost: number): RetryToken => ({ getRetryCount: () => count, getRetryDelay: () => delay, cost }) as RetryToken;

/**
 * What a client is built with so that `callBudgetMs` bounds its calls: the connection and attempt
 * timeouts (an attempt that overruns is an error, not the SDK's default warning) and the bounded retry.
 */
export function boundedClientConfig(service: SdkService) {
  const l = CALL_LIMITS[service];
  return {
    maxAttempts: l.maxAttempts,
    retryStrategy: new BoundedRetryStrategy(l),
    requestHandler: { connectionTimeout: l.connectionMs, requestTimeout: l.attemptMs, socketTimeout: l.attemptMs, throwOnRequestTimeout: true },
  };
}

/**
 * Bounds each attempt as a whole, the reading of the answer included: the HTTP handler's timeouts
 * stop at the answer's headers and at silences, so a body sent slowly would otherwise stretch it.
 */
function boundAttempts(client: Stack, service: SdkService): void {
  const ms = CALL_LIMITS[service].attemptMs;
  client.middlewareStack.add(
    (next) => (args) => {
      let timer: NodeJS.Timeout | undefined;
      const overrun = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error(`the attempt took longer than ${ms} ms`), { name: 'TimeoutError' })), ms);
      });
      return Promise.race([next(args), overrun]).finally(() => clearTimeout(timer));
    },
    { step: 'deserialize', name: 'idvBoundAttempt', priority: 'high' },
  );
}

/**
 * The longest an API request may spend in SDK calls, all of them together (20 s): a route makes up
 * to about ten calls one after the other, and ten call budgets would outlast API Gateway's 29 s, so
 * the request as a whole is bounded too. The API functions' Lambda timeout sits above it
 * (lib/rest-api.ts API_FUNCTION_TIMEOUT), API Gateway's 29 s above that.
 */
export const REQUEST_BUDGET_MS = 20_000;

/**
 * Runs `work` (one request) with a budget: an SDK call made for it after the budget is spent fails
 * at once, and one still running when it runs out fails then, as ServiceUnavailableError (503), so
 * that the answer comes before the function's timeout and API Gateway's. Concurrent requests of the
 * local runtime each have their own budget (the deadline follows the request's async context).
 */
export function withinBudget<T>(ms: number, work: () => Promise<T>): Promise<T> {
  return deadlines.run(Date.now() + ms, work);
}

/** Ends a call when its request's budget (withinBudget) runs out; calls made outside one are bounded by their own limits alone. */
function keepDeadline(client: Stack): void {
  client.middlewareStack.add(
    (next) => (args) => {
      const until = deadlines.getStore();
      if (until === undefined) return next(args);
      const left = until - Date.now();
      if (left <= 0) return Promise.reject(new ServiceUnavailableError());
      let timer: NodeJS.Timeout | undefined;
      const spent = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ServiceUnavailableError()), left);
      });
      return Promise.race([next(args), spent]).finally(() => clearTimeout(timer));
    },
    { step: 'initialize', name: 'idvRequestDeadline', priority: 'low' },
  );
}

/**
 * Applies what every client of the service carries besides its config: each attempt bounded, the
 * request's budget kept and failures translated (src/adapters/textract/aws-clients.ts applies it to
 * the extraction clients).
 */
export function bounded<C extends { middlewareStack: object }>(client: C, service: SdkService): C {
  // Every client's stack takes these middlewares; only its input and output types differ.
  const stack = client as unknown as Stack;
  boundAttempts(stack, service);
  keepDeadline(stack);
  translateUnavailable(stack);
  return client;
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
    const client = new DynamoDBClient({ region, ...common, ...boundedClientConfig('dynamodb'), ...(config.DYNAMODB_ENDPOINT && { endpoint: config.DYNAMODB_ENDPOINT }) });
    // The benchmark counts requests in the local runtime; a Lambda bundle leaves the counter out.
    if (process.env.IDV_BUNDLE_LOCAL !== 'absent' && config.IDV_DYNAMODB_METRICS === 'true') countRequests(client);
    return bounded(client, 'dynamodb');
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
    const client = new S3Client({ ...s3Options, ...boundedClientConfig('s3'), ...(config.S3_ENDPOINT && { endpoint: config.S3_ENDPOINT }) });
    return bounded(client, 's3');
  });
  const s3Presign = process.env.IDV_BUNDLE_S3 === 'absent' ? notBundled('s3') : once(() => (config.S3_PUBLIC_ENDPOINT ? new S3Client({ ...s3Options, endpoint: config.S3_PUBLIC_ENDPOINT }) : s3()));
  const sfn = process.env.IDV_BUNDLE_SFN === 'absent' ? notBundled('sfn') : once(() => bounded(new SFNClient({ region, ...common, ...boundedClientConfig('sfn') }), 'sfn'));
  const eventBridge =
    process.env.IDV_BUNDLE_EVENTBRIDGE === 'absent'
      ? notBundled('eventbridge')
      : once(() => bounded(new EventBridgeClient({ region, ...common, ...boundedClientConfig('eventbridge') }), 'eventbridge'));
  const sqs = process.env.IDV_BUNDLE_SQS === 'absent' ? notBundled('sqs') : once(() => bounded(new SQSClient({ region, ...common, ...boundedClientConfig('sqs') }), 'sqs'));
  const secrets =
    process.env.IDV_BUNDLE_SECRETS === 'absent'
      ? notBundled('secrets')
      : once(() => bounded(new SecretsManagerClient({ region, ...common, ...boundedClientConfig('secrets') }), 'secrets'));
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
