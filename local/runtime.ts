import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import S3rver from 's3rver';
import { DynamoFlowRepository } from '../src/adapters/dynamodb/flow-repository';
import { DynamoFaceLivenessSessions } from '../src/adapters/dynamodb/face-liveness-sessions';
import { DynamoImageReferences } from '../src/adapters/dynamodb/image-references';
import { DynamoLivenessChallenges } from '../src/adapters/dynamodb/liveness-challenges';
import { S3ImageInventory } from '../src/adapters/s3/image-inventory';
import { IMAGE_PREFIX } from '../src/app/documents';
import { type SweepOrphansOptions, type SweepOrphansResult, sweepOrphans } from '../src/app/sweep-orphans';
import { DynamoTokenRepository } from '../src/adapters/dynamodb/token-repository';
import { SystemClock } from '../src/adapters/ids';
import { LocalWorkflowStarter, substituteDefinition, type TaskHandlers } from '../src/adapters/local/workflow-runner';
import { WORKFLOW_TASKS } from '../statemachines/tasks';
import { hashToken, newApiToken } from '../src/app/tokens';
import { LocalDeliveryQueue } from '../src/adapters/local/delivery-queue';
import { LocalEventBus } from '../src/adapters/local/event-bus';
import { configureLocal, getDeps } from '../src/container';
import { type RescreenReport, rescreenApproved } from '../src/app/screening-rescreen';
import type { ListChanges, SanctionsScreener } from '../src/ports/screening';
import type { ChangesScreener } from '../src/ports/screening-store';
import { DEFAULT_SNAPSHOT_FOLDER } from '../src/adapters/screening/file-screener';
import { changesScreener, LocalLists, readLocalLists } from './screening';
import { EVENT_RULES } from '../src/events/events';
import { type Flow, resolveFlows } from '../src/domain/flow';
import { handlerFiles, routes } from '../src/http/routes';
import { serveFilesFrom } from '../src/web/served-files';
import { writeServedFiles } from '../lib/served-files';
import { dataFolderCredentials } from './credentials';
import { ensureTable, startDynamo } from './dynamodb';
import { verifyPresigned, verifySignedRequest } from './presign-gate';
import { type ApiHandler, type Authorizer, createFront, type FrontOptions } from './server';

const ROOT = resolve(__dirname, '..');
export const LOCAL_TABLE = 'idv-local';
export const LOCAL_BUCKET = 'idv-local-images';
const REGION = 'us-east-1';
const DEV_TOKEN_NAME = 'local-dev';

export interface RuntimeOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  dataDir: string;
  /** Accepted as a valid token; when unset a dev token is generated and returned. */
  apiToken?: string;
  /** Keep DynamoDB data in memory (tests); files under dataDir otherwise. */
  inMemory?: boolean;
  log?: (line: string) => void;
  /** How often the expiry job runs (default 60 s). */
  expiryIntervalSeconds?: number;
  /** Webhook retry schedule; tests shrink it to milliseconds. */
  webhookRetry?: { baseSeconds: number; maxAgeSeconds: number };
  /** Extractor: the option, else EXTRACTOR from the environment, else the offline extractor. */
  extractor?: 'offline' | 'sandbox';
  /** First delay before DynamoDB Local is restarted after it stopped on its own (default 1 s). */
  serviceRestartDelayMs?: number;
  /**
   * The sanctions lists' screener (flows with `checks.screening`): tests may give one; without it the
   * snapshots of `screeningLists` read at start (local/screening.ts).
   */
  screener?: SanctionsScreener;
  /** The folder of sanctions-list snapshots read at start: the option, else SCREENING_LISTS, else the repository's fictional test lists (config/screening). */
  screeningLists?: string;
  /**
   * The Rekognition-mode capture's settings (REKOGNITION_LIVENESS_REGION and _IDENTITY_POOL_ID, as the
   * stack sets them): the widget page of a `rekognition` flow then opens its policy to AWS's hosts as
   * deployed. There is still no Rekognition locally (the challenge of such a flow answers that it is
   * not available): for tests of the page and of the widget's capture.
   */
  faceLivenessCapture?: { region: string; identityPoolId: string };
}

export interface Runtime {
  url: string;
  token: string;
  flows: Flow[];
  workflow: LocalWorkflowStarter;
  bus: LocalEventBus;
  deliveries: LocalDeliveryQueue;
  /** Waits until the pipeline, the bus and the delivery queue have nothing left to do. */
  idle(): Promise<void>;
  /** Runs the expiry job now (it also runs every `expiryIntervalSeconds`). */
  expireNow(): Promise<{ expired: number }>;
  /** Runs the purge job now (it runs after each expiry run). */
  purgeNow(): Promise<{ purged: number }>;
  /** Runs the outbox job now (it runs after each purge run). */
  publishPendingNow(): Promise<{ published: number; setAside?: number }>;
  /** Runs the run sweeper now (it runs after each outbox run, and once at start with no wait). */
  sweepRunsNow(event?: { checkAfterSeconds?: number }): Promise<{ restarted: number; failed: number }>;
  /**
   * Re-screens the approved verifications of the flows that opt in against a new snapshot's changed
   * entries, as the deployed list refresh does after storing a snapshot (src/app/screening-rescreen.ts).
   */
  rescreenNow(changes: readonly ListChanges[], screenerOf: ChangesScreener): Promise<RescreenReport>;
  /**
   * A new snapshot, locally: reads the lists of a folder, screens with them from now on, and
   * re-screens the approved verifications that opt in against what changed (the deployed refresh's work).
   */
  loadScreeningLists(folder: string): Promise<{ changes: { list: string; asOf: string; changed: number }[]; rescreen: RescreenReport }>;
  /** The lists the runtime screens with (none when a test gave its own screener). */
  screeningLists: { list: string; asOf: string; entries: number }[];
  /** Runs the orphan-image sweep now (it runs every hour, as deployed it runs every day). */
  sweepOrphansNow(options?: SweepOrphansOptions): Promise<SweepOrphansResult>;
  doc: DynamoDBDocumentClient;
  /** The local backing services' endpoints (loopback) and the credentials they require. */
  /** The extractor the runtime was configured with. */
  extractor: 'offline' | 'sandbox';
  endpoints: { dynamodb: string; s3: string; /** Where presigned image links point: the front's signature-checking gate. */ s3Public: string };
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Process id of DynamoDB Local (the benchmark reads its memory); it changes when DynamoDB Local is restarted. */
  readonly dynamoPid: number | undefined;
  stop(): Promise<void>;
}

function sessionSecret(dataDir: string): string {
  const file = join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * Starts the whole service locally: DynamoDB Local, the local S3 server, the signature-checking
 * link gate and the API front, all on loopback; the same handlers, route table, flows file and
 * state machine file as the deployed stack.
 */
export async function startRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const host = opts.host ?? '127.0.0.1';
  const dataDir = resolve(opts.dataDir);
  const log = opts.log ?? (() => {});
  // The data folder is private (0700) and holds the credentials the backing services require (0600).
  const { credentials: CREDENTIALS, file: credentialsFile } = dataFolderCredentials(dataDir);
  // The backing services listen on loopback only, whatever HOST the API is given.
  const serviceHost = host === '::1' ? '::1' : '127.0.0.1';
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => {});
  };
  try {
    // Seeds DynamoDB Local again after the supervisor restarted it (an in-memory one comes back empty).
    let reseed: (() => Promise<void>) | undefined;
    const dynamo = await startDynamo({
      dir: opts.inMemory ? undefined : join(dataDir, 'dynamodb'),
      host: serviceHost,
      credentialsFile,
      restartDelayMs: opts.serviceRestartDelayMs,
      onRestart: async () => reseed?.(),
      log,
    });
    stops.push(dynamo.stop);

    // s3rver checks no signature and lets anonymous requests through: it never listens itself, and the
    // only way to it is this loopback server, which lets through only requests signed with the folder's credentials.
    mkdirSync(join(dataDir, 's3'), { recursive: true });
    const s3rver = new S3rver({ directory: join(dataDir, 's3'), silent: true, configureBuckets: [{ name: LOCAL_BUCKET }] });
    await s3rver.configureBuckets();
    const s3App = s3rver.callback();
    const s3Server = createServer((req, res) => {
      verifySignedRequest(req.method ?? 'GET', req.url ?? '/', req.headers, CREDENTIALS, REGION, 's3')
        .then((gate) => {
          if (gate.ok) {
            // Authenticated here; s3rver knows only its own fixed key, so it gets the request as its anonymous owner.
            delete req.headers.authorization;
            return s3App(req, res);
          }
          req.resume();
          res
            .writeHead(gate.status, { 'Content-Type': 'application/xml' })
            .end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${gate.code}</Code><Message>${gate.message}</Message></Error>`);
        })
        .catch(() => {
          if (!res.headersSent) res.writeHead(500).end();
        });
    });
    await new Promise<void>((ok, fail) => {
      s3Server.once('error', fail);
      s3Server.listen(0, serviceHost, () => ok());
    });
    stops.push(async () => {
      await new Promise<void>((ok) => {
        s3Server.close(() => ok());
        s3Server.closeAllConnections();
      });
      s3rver.logger?.exceptions?.unhandle();
      s3rver.logger?.close();
    });
    const s3Port = (s3Server.address() as AddressInfo).port;
    const s3Endpoint = `http://${serviceHost === '::1' ? '[::1]' : serviceHost}:${s3Port}`;

    const s3 = new S3Client({
      region: REGION,
      endpoint: s3Endpoint,
      forcePathStyle: true,
      credentials: CREDENTIALS,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    // Handlers and the authorizer are filled in once the environment is set (the port is known only after listen).
    const frontOptions: FrontOptions = {
      handlers: new Map(),
      authorizer: async () => {
        throw new Error('not ready');
      },
      s3: async (req, res, url) => {
        const method = req.method ?? 'GET';
        if (method !== 'GET' && method !== 'HEAD') {
          res.writeHead(405, { 'Content-Type': 'application/xml' }).end('<Error><Code>MethodNotAllowed</Code></Error>');
          return;
        }
        const gate = await verifyPresigned(method, url, req.headers.host ?? '', CREDENTIALS, REGION);
        if (!gate.ok) {
          res
            .writeHead(gate.status, { 'Content-Type': 'application/xml' })
            .end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${gate.code}</Code><Message>${gate.message}</Message></Error>`);
          return;
        }
        const [, , bucket, ...rest] = url.pathname.split('/');
        try {
          const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: decodeURIComponent(rest.join('/')) }));
          const bytes = await out.Body?.transformToByteArray();
          res.writeHead(200, {
            'Content-Type': out.ContentType ?? 'application/octet-stream',
            'Content-Length': String(bytes?.length ?? 0),
            'Cache-Control': 'private, max-age=0, no-store',
            ...(out.ETag && { ETag: out.ETag }),
          });
          res.end(method === 'HEAD' ? undefined : bytes);
        } catch {
          res.writeHead(404, { 'Content-Type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
        }
      },
      log,
      ready: false,
    };
    const front = createFront(frontOptions);
    await new Promise<void>((ok, fail) => {
      front.once('error', fail);
      front.listen(opts.port ?? 3000, host, () => ok());
    });
    stops.push(
      () =>
        new Promise<void>((ok) => {
          front.close(() => ok());
          front.closeAllConnections();
        }),
    );
    const port = (front.address() as AddressInfo).port;
    const url = `http://${host}:${port}`;

    // The same configuration the Lambdas get from the stack, pointed at the local servers: handed to
    // the container (configureLocal below), never written into process.env.
    const settings: Record<string, string | undefined> = {
      ...process.env,
      TABLE_NAME: LOCAL_TABLE,
      BUCKET_NAME: LOCAL_BUCKET,
      RUNTIME: 'local',
      WEBHOOK_RETRY_BASE_SECONDS: String(opts.webhookRetry?.baseSeconds ?? process.env.WEBHOOK_RETRY_BASE_SECONDS ?? 30),
      WEBHOOK_MAX_AGE_SECONDS: String(opts.webhookRetry?.maxAgeSeconds ?? process.env.WEBHOOK_MAX_AGE_SECONDS ?? 93600),
      // Offline extraction by default; `sandbox` is the test mode (outcomes from payloads in the images).
      EXTRACTOR: opts.extractor ?? process.env.EXTRACTOR ?? 'offline',
      SESSION_SECRET: sessionSecret(dataDir),
      // The decision-receipt key, made on first use (docs/explanation/fraud-signals.md).
      RECEIPT_KEY_FILE: join(dataDir, 'receipt-key.pem'),
      // The duplicate-document fingerprint key, made on first use.
      FINGERPRINT_KEY_FILE: join(dataDir, 'fingerprint-key'),
      AWS_REGION: REGION,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: s3Endpoint,
      S3_PUBLIC_ENDPOINT: `${url}/s3`,
      ...(opts.faceLivenessCapture && { REKOGNITION_LIVENESS_REGION: opts.faceLivenessCapture.region, REKOGNITION_LIVENESS_IDENTITY_POOL_ID: opts.faceLivenessCapture.identityPoolId }),
    };
    // The log level is POWERTOOLS_LOG_LEVEL's when the service's modules load (npm start and the
    // tests default it to WARN first): a level set here would last one invocation, as Powertools'
    // injectLambdaContext re-applies the level the logger was built with on every warm invocation.

    const client = new DynamoDBClient({ region: REGION, endpoint: dynamo.endpoint, credentials: CREDENTIALS });
    const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
    await ensureTable(client, LOCAL_TABLE);
    const flows = resolveFlows(JSON.parse(readFileSync(join(ROOT, 'config', 'flows.json'), 'utf8')));
    await new DynamoFlowRepository(doc, LOCAL_TABLE).putAll(flows);

    const tokens = new DynamoTokenRepository(doc, LOCAL_TABLE);
    const token = opts.apiToken ?? newApiToken();
    await tokens.deleteByName(DEV_TOKEN_NAME);
    await tokens.put({ name: DEV_TOKEN_NAME, hash: hashToken(token), createdAt: new SystemClock().now() });
    reseed = async () => {
      await ensureTable(client, LOCAL_TABLE);
      await new DynamoFlowRepository(doc, LOCAL_TABLE).putAll(flows);
      await tokens.deleteByName(DEV_TOKEN_NAME);
      await tokens.put({ name: DEV_TOKEN_NAME, hash: hashToken(token), createdAt: new SystemClock().now() });
    };

    // The same state machine file, each Task bound to the handler its Lambda runs.
    const definition = substituteDefinition(
      readFileSync(join(ROOT, 'statemachines', 'verification.asl.json'), 'utf8'),
      Object.fromEntries(WORKFLOW_TASKS.map((t) => [t.substitution, `arn:aws:lambda:${REGION}:000000000000:function:${t.state}`])),
    );
    const taskHandlers: TaskHandlers = {};
    for (const task of WORKFLOW_TASKS) {
      taskHandlers[task.state] = ((await import(join(ROOT, 'functions', task.handler))) as { handler: TaskHandlers[string] }).handler;
    }
    // An execution that fails is handled as the deployed rule on "Execution Status Change" FAILED does (functions/events/execution-ended).
    const executionEnded = ((await import(join(ROOT, 'functions', 'events', 'execution-ended'))) as { handler: (e: unknown) => Promise<unknown> }).handler;
    const workflow = new LocalWorkflowStarter(definition, taskHandlers, (name, error, input) => {
      log(`workflow ${name} failed: ${(error as Error).name}`);
      return executionEnded({ detail: { status: 'FAILED', name, input: JSON.stringify(input) } });
    });
    // The same rule patterns and target handlers as the EventBridge rules; the same SQS consumer.
    const bus = new LocalEventBus(
      await Promise.all(
        EVENT_RULES.map(async (rule) => ({
          name: rule.name,
          pattern: rule.pattern,
          target: ((await import(join(ROOT, 'functions', rule.target))) as { handler: (e: unknown) => Promise<unknown> }).handler,
        })),
      ),
      REGION,
    );
    const deliveries = new LocalDeliveryQueue();
    deliveries.consumeWith(((await import(join(ROOT, 'functions', 'events', 'deliver-webhook'))) as { handler: Parameters<LocalDeliveryQueue['consumeWith']>[0] }).handler);
    // The sanctions lists, read once at start (a malformed file fails the start loudly).
    const today = () => new Date().toISOString().slice(0, 10);
    const lists = opts.screener ? undefined : new LocalLists(readLocalLists(opts.screeningLists ?? process.env.SCREENING_LISTS ?? DEFAULT_SNAPSHOT_FOLDER, today()));
    const screeningLists = lists ? await lists.loaded() : [];
    configureLocal({ adapters: { workflow, events: bus, deliveries, ...((opts.screener ?? lists) && { screener: opts.screener ?? lists }) }, settings, credentials: CREDENTIALS });
    // The files functions serve as they are (the widget's scripts and texts, pdf.js), written by the
    // writer that fills each deployed asset's files/ folder: the same bytes as deployed.
    const files = join(dataDir, 'files');
    writeServedFiles([...new Set(routes.flatMap((r) => r.needs.files ?? []))], files);
    serveFilesFrom(files);

    writeFileSync(join(dataDir, 'runtime.json'), JSON.stringify({ url, dynamodbEndpoint: dynamo.endpoint, table: LOCAL_TABLE }, null, 2));

    // Same handler code as the Lambdas, loaded once.
    for (const file of handlerFiles()) {
      const mod = (await import(join(ROOT, 'functions', file))) as { handler: ApiHandler };
      frontOptions.handlers.set(file, mod.handler);
    }
    frontOptions.authorizer = ((await import(join(ROOT, 'functions', 'authorizer'))) as { handler: Authorizer }).handler;
    // The expiry and purge jobs, on a timer instead of EventBridge schedules.
    const expiryModule = (await import(join(ROOT, 'functions', 'jobs', 'expire-verifications'))) as { handler: () => Promise<{ expired: number }> };
    const purgeModule = (await import(join(ROOT, 'functions', 'jobs', 'purge-deleted'))) as { handler: () => Promise<{ purged: number }> };
    const outboxModule = (await import(join(ROOT, 'functions', 'jobs', 'publish-outbox'))) as { handler: () => Promise<{ published: number; setAside?: number }> };
    const sweepModule = (await import(join(ROOT, 'functions', 'jobs', 'sweep-runs'))) as { handler: (e?: { checkAfterSeconds?: number }) => Promise<{ restarted: number; failed: number }> };
    const sweepRunsNow = (event?: { checkAfterSeconds?: number }) => sweepModule.handler(event);
    // Runs left by a crash died with the process: resume them now (docs/explanation/architecture.md "Processing pipeline").
    await sweepRunsNow({ checkAfterSeconds: 0 })
      .then((r) => r.restarted + r.failed > 0 && log(`run sweeper: ${r.restarted} run(s) resumed, ${r.failed} failed to Double Check`))
      .catch((error: unknown) => log(`run sweeper failed: ${(error as Error).name}`));
    const publishPendingNow = () => outboxModule.handler();
    const expireNow = () => expiryModule.handler();
    const purgeNow = () => purgeModule.handler();
    const expiryTimer = setInterval(() => {
      expireNow()
        .then(({ expired }) => expired > 0 && log(`expiry job: ${expired} verification(s) expired`))
        .then(() => purgeNow())
        .then((r) => r && r.purged > 0 && log(`purge job: ${r.purged} deleted verification(s) purged`))
        .then(() => publishPendingNow())
        .then((r) => {
          if (r && r.published > 0) log(`outbox job: ${r.published} event(s) published again`);
          if (r?.setAside) log(`outbox job: ${r.setAside} event(s) set aside (never publishable)`);
        })
        .then(() => sweepRunsNow())
        .then((r) => r && r.restarted + r.failed > 0 && log(`run sweeper: ${r.restarted} run(s) restarted, ${r.failed} failed to Double Check`))
        .catch((error: unknown) => log(`scheduled job failed: ${(error as Error).name}`));
    }, (opts.expiryIntervalSeconds ?? 60) * 1000);
    expiryTimer.unref();
    stops.push(async () => clearInterval(expiryTimer));
    // Images no record names (a crash between an upload's image and table writes): removed once past the grace (src/app/sweep-orphans.ts).
    const orphanSweep = {
      imageInventory: new S3ImageInventory(s3, LOCAL_BUCKET, IMAGE_PREFIX),
      imageReferences: new DynamoImageReferences(doc, LOCAL_TABLE),
      clock: new SystemClock(),
      liveness: new DynamoLivenessChallenges(doc, LOCAL_TABLE),
      faceLivenessSessions: new DynamoFaceLivenessSessions(doc, LOCAL_TABLE),
    };
    const sweepOrphansNow = (options?: SweepOrphansOptions) => sweepOrphans(orphanSweep, options);
    const rescreenNow = async (changes: readonly ListChanges[], screenerOf: ChangesScreener) =>
      rescreenApproved(await getDeps(['flows', 'verifications', 'screenings', 'clock', 'ids', 'events', 'outbox']), changes, screenerOf);
    const loadScreeningLists = async (folder: string) => {
      if (!lists) throw new Error('this runtime was given its own screener: it reads no list folder');
      const changes = lists.replace(readLocalLists(folder, today()));
      screeningLists.splice(0, screeningLists.length, ...(await lists.loaded()));
      const rescreen = await rescreenNow(changes, changesScreener);
      return { changes: changes.map((c) => ({ list: c.list, asOf: c.asOf, changed: c.changed.length })), rescreen };
    };
    const orphanTimer = setInterval(() => {
      sweepOrphansNow()
        .then((r) => r.removed > 0 && log(`orphan sweep: ${r.removed} image(s) no record names removed`))
        .catch((error: unknown) => log(`orphan sweep failed: ${(error as Error).name}`));
    }, 3600 * 1000);
    orphanTimer.unref();
    stops.push(async () => clearInterval(orphanTimer));

    // Everything is installed: from now on /health's 200 means every route answers as it will.
    frontOptions.ready = true;

    const idle = async () => {
      do {
        await workflow.idle();
        await bus.idle();
        await deliveries.idle();
      } while (workflow.busy || bus.busy);
    };
    const stopAll = async () => {
      deliveries.stop();
      await workflow.idle();
      await bus.idle();
      await stop();
    };
    return {
      url,
      token,
      flows,
      workflow,
      bus,
      deliveries,
      doc,
      get endpoints() {
        return { dynamodb: dynamo.endpoint, s3: s3Endpoint, s3Public: `${url}/s3` };
      },
      credentials: { accessKeyId: CREDENTIALS.accessKeyId, secretAccessKey: CREDENTIALS.secretAccessKey },
      idle,
      expireNow,
      purgeNow,
      publishPendingNow,
      sweepRunsNow,
      sweepOrphansNow,
      rescreenNow,
      loadScreeningLists,
      screeningLists,
      extractor: settings.EXTRACTOR as 'offline' | 'sandbox',
      get dynamoPid() {
        return dynamo.pid;
      },
      stop: stopAll,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
