import { join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { OPTIONAL_MODULES, type OptionalModule } from '../src/clients';
import { entryPorts } from '../src/entries';
import type { ServedFile } from '../src/http/routes';
import { functionBundling, functionParts, functionPorts, MAIN_FIELDS } from './bundling';
import { stageServedFiles } from './served-files';

const ROOT = join(__dirname, '..');

export interface ServiceFunctionProps {
  /** Entry under functions/, without extension, e.g. `api/get-verification`. */
  file: string;
  environment: Record<string, string>;
  memorySize?: number;
  timeout?: Duration;
  /** Optional heavy modules this function loads (src/clients.ts OPTIONAL_MODULES); the others stay out of its bundle. */
  loads?: OptionalModule[];
  /**
   * Package the offline extraction engines (native onnxruntime and sharp, wasm, models) as node_modules
   * beside the bundle. x86_64, so that the binaries npm installs on the (x86_64) build machine match.
   */
  offlineEngines?: boolean;
  /**
   * Package what the PDF report draws uploads with (sharp for images, pdf.js with its canvas for PDF
   * pages) beside the bundle; x86_64 for the same reason as the engines. Without them the report
   * would carry placeholder pages instead of the uploaded images.
   */
  reportEngines?: boolean;
  /** Files served as they are (src/http/routes.ts `Needs.files`), written into the asset's `files/` folder. */
  files?: readonly ServedFile[];
}

/** The packages the PDF report loads at run time (src/adapters/pdf/report-renderer.ts). */
export const REPORT_ENGINE_MODULES = ['sharp', 'pdfjs-dist'];

/** The packages the offline extractor loads at run time with Node's require (src/adapters/offline/engines.ts). */
export const OFFLINE_ENGINE_MODULES = [
  '@gutenye/ocr-node', 'onnxruntime-node', 'sharp', 'tesseract.js', '@tesseract.js-data/eng', 'zxing-wasm', 'pdfjs-dist',
  '@vladmandic/face-api', '@tensorflow/tfjs', '@tensorflow/tfjs-core', '@tensorflow/tfjs-converter', '@tensorflow/tfjs-backend-wasm',
  // Only the models folder's antispoof and liveness files are kept (the selfie's presentation-attack scores).
  '@vladmandic/human',
];

/**
 * The files of the engine packages the extraction functions keep: those the engines were seen to
 * load (scripts/offline-trace.ts runs every engine from a synthesized asset under strace), plus
 * folders kept whole. Everything else npm installs (other builds, source maps, typings, unused wasm
 * variants and models) is deleted after bundling (scripts/prune-asset.mjs), so that the asset fits
 * Lambda's 250 MB; test/cdk/synthesized-assets.test.ts proves the pruned asset still extracts.
 */
export const OFFLINE_KEEP_LIST = join(ROOT, 'lib', 'offline-engine-files.json');

/** The liveness observer's worker thread (src/adapters/offline/face-observer-thread.ts), bundled beside the function's index.js. */
export const OBSERVER_WORKER = { entry: join(ROOT, 'src', 'adapters', 'offline', 'face-observer-worker.ts'), file: 'face-observer-worker.js' } as const;

/**
 * The command that bundles the observer's worker into a function's asset folder, as the function
 * itself is bundled (the locally installed esbuild, CJS for Node 22, the engines left to the
 * asset's node_modules): a worker thread loads its own file, which the one-file bundle cannot hold.
 */
export function observerWorkerBundling(output: string): string {
  const external = [...OFFLINE_ENGINE_MODULES, ...OPTIONAL_MODULES].map((m) => `--external:${m}`).join(' ');
  return `"${join(ROOT, 'node_modules', '.bin', 'esbuild')}" "${OBSERVER_WORKER.entry}" --bundle --minify --platform=node --target=node22 --format=cjs --main-fields=${MAIN_FIELDS.join(',')} --log-level=error ${external} --outfile="${join(output, OBSERVER_WORKER.file)}"`;
}

/** `functions/api/get-verification` → `GetVerification`: stable construct ids derived from file names. */
export function constructName(file: string): string {
  return file
    .replace(/^(api|workflow|events)\//, '')
    .split(/[-/]/)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
}

/**
 * A function is told only what it uses: the table's and the bucket's names when its bundle holds the
 * client that reaches them, the extractor setting when it holds extractors, the session secret's ARN,
 * the public base URL, the retention and Face Liveness's settings when it names those ports
 * (lib/bundling.ts `functionParts`, `functionPorts`; Face Liveness's region to the functions that call
 * Rekognition or tell the widget's capture where to connect, the identity pool to the latter only);
 * every other setting it is given as it is.
 */
export function toldWhatItUses(file: string, environment: Record<string, string>): Record<string, string> {
  const parts = functionParts(file);
  const ports = functionPorts(file);
  const { TABLE_NAME, BUCKET_NAME, EXTRACTOR, SESSION_SECRET_ARN, PUBLIC_BASE_URL, DELETED_RETENTION_DAYS, REKOGNITION_LIVENESS_REGION, REKOGNITION_LIVENESS_MIN_CONFIDENCE, REKOGNITION_LIVENESS_IDENTITY_POOL_ID, IMAGE_KEY_ID, ...rest } =
    environment;
  const keep = (name: string, value: string | undefined, used: boolean) => (value !== undefined && used ? { [name]: value } : {});
  return {
    ...rest,
    ...keep('TABLE_NAME', TABLE_NAME, parts.includes('dynamodb')),
    ...keep('BUCKET_NAME', BUCKET_NAME, parts.includes('s3')),
    ...keep('EXTRACTOR', EXTRACTOR, parts.includes('extractors')),
    ...keep('SESSION_SECRET_ARN', SESSION_SECRET_ARN, ports.includes('sessionSecret')),
    ...keep('PUBLIC_BASE_URL', PUBLIC_BASE_URL, ports.includes('publicBaseUrl')),
    ...keep('DELETED_RETENTION_DAYS', DELETED_RETENTION_DAYS, ports.includes('deletedRetentionDays')),
    ...keep('REKOGNITION_LIVENESS_REGION', REKOGNITION_LIVENESS_REGION, ports.includes('faceLiveness') || ports.includes('faceLivenessCapture')),
    ...keep('IMAGE_KEY_ID', IMAGE_KEY_ID, ports.includes('faceLiveness')),
    // The widget's capture asks Cognito with it: the challenge's answer carries it, the page's policy names Cognito's host from it.
    ...keep('REKOGNITION_LIVENESS_IDENTITY_POOL_ID', REKOGNITION_LIVENESS_IDENTITY_POOL_ID, ports.includes('faceLivenessCapture')),
    ...keep('REKOGNITION_LIVENESS_MIN_CONFIDENCE', REKOGNITION_LIVENESS_MIN_CONFIDENCE, ports.includes('faceLivenessMinConfidence')),
  };
}

/**
 * Every function of the service: nodejs22.x on arm64, bundled by the locally installed esbuild
 * (no Docker) with the AWS SDK v3 clients inside, its own log group kept one year.
 */
export class ServiceFunction extends NodejsFunction {
  /** Its entry under functions/ (`api/get-verification`): alarms group functions by it. */
  readonly file: string;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id, {
      entry: join(ROOT, 'functions', `${props.file}.ts`),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: props.offlineEngines || props.reportEngines ? Architecture.X86_64 : Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(29),
      environment: toldWhatItUses(props.file, props.environment),
      // X-Ray segments for every invocation, joined to API Gateway's and Step Functions' traces.
      tracing: Tracing.ACTIVE,
      projectRoot: ROOT,
      depsLockFilePath: join(ROOT, 'package-lock.json'),
      logGroup: new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_YEAR, removalPolicy: RemovalPolicy.RETAIN }),
      bundling: {
        minify: true,
        sourceMap: false,
        target: 'node22',
        format: OutputFormat.CJS,
        // Code that reaches a heavy module this function leaves out folds away (src/clients.ts
        // loadDefines): an extraction function bundles only the extractors its stack chose.
        ...functionBundling(props.file, props.loads ?? []),
        // AWS SDK v3 clients are bundled; heavy modules this function never loads are left out.
        externalModules: OPTIONAL_MODULES.filter((m) => !(props.loads ?? []).includes(m)),
        ...(props.offlineEngines && {
          nodeModules: OFFLINE_ENGINE_MODULES,
          environment: {
            // onnxruntime-node's install script would fetch GPU providers; its CPU binaries ship in the package.
            npm_config_onnxruntime_node_install: 'skip',
            // The optional native packages npm picks (sharp's libvips, the canvas) are Lambda's: Linux x86_64, glibc.
            npm_config_os: 'linux',
            npm_config_cpu: 'x64',
            npm_config_libc: 'glibc',
          },
          commandHooks: {
            beforeBundling: () => [],
            beforeInstall: () => [],
            afterBundling: (_input: string, output: string) => [observerWorkerBundling(output), `node "${join(ROOT, 'scripts', 'prune-asset.mjs')}" "${output}" "${OFFLINE_KEEP_LIST}"`],
          },
        }),
        ...(props.reportEngines &&
          !props.offlineEngines && {
            nodeModules: REPORT_ENGINE_MODULES,
            commandHooks: {
              beforeBundling: () => [],
              beforeInstall: () => [],
              afterBundling: (_input: string, output: string) => [`cd "${output}" && rm -rf node_modules/pdfjs-dist/build node_modules/pdfjs-dist/web node_modules/pdfjs-dist/image_decoders`],
            },
          }),
        ...(props.files &&
          props.files.length > 0 && {
            commandHooks: {
              beforeBundling: () => [],
              beforeInstall: () => [],
              // Package files copied, the generated texts written from the source (lib/served-files.ts).
              afterBundling: (_input: string, output: string) => [`mkdir -p "${output}/files"`, `cp "${stageServedFiles(props.files!)}"/* "${output}/files/"`],
            },
          }),
      },
    });
    this.file = props.file;
  }
}

/** DynamoDB actions per declared table access; never Scan (no request path scans the table). */
export const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'],
  write: [
    'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem',
    'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem',
  ],
} as const;

/**
 * Grants a function outside the route table (workflow task, event consumer, job) what its declared
 * ports use (src/entries.ts): table reads and writes (never Scan), the session secret and PutEvents
 * only when it names them. Queues, images and Step Functions stay with the construct that owns them.
 */
export function grantEntryPorts(fn: ServiceFunction, file: string, grants: { table: ITable; sessionSecret: ISecret; bus: IEventBus }): void {
  const ports = entryPorts(file);
  grants.table.grant(fn, ...TABLE_ACTIONS.write);
  if (ports.includes('sessionSecret')) grants.sessionSecret.grantRead(fn);
  if (ports.includes('events')) grants.bus.grantPutEventsTo(fn);
}
