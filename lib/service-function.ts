import { join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { OPTIONAL_MODULES, type OptionalModule } from '../src/clients';

const ROOT = join(__dirname, '..');

export interface ServiceFunctionProps {
  /** Entry under functions/, without extension, e.g. `api/get-verification`. */
  file: string;
  environment: Record<string, string>;
  memorySize?: number;
  timeout?: Duration;
  /** Optional heavy modules this function loads (src/clients.ts OPTIONAL_MODULES); the others stay out of its bundle. */
  loads?: OptionalModule[];
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
 * Every function of the service: nodejs22.x on arm64, bundled by the locally installed esbuild
 * (no Docker) with the AWS SDK v3 clients inside, its own log group kept one year.
 */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id, {
      entry: join(ROOT, 'functions', `${props.file}.ts`),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(29),
      environment: props.environment,
      projectRoot: ROOT,
      depsLockFilePath: join(ROOT, 'package-lock.json'),
      logGroup: new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_YEAR, removalPolicy: RemovalPolicy.RETAIN }),
      bundling: {
        minify: true,
        sourceMap: false,
        target: 'node22',
        format: OutputFormat.CJS,
        // AWS SDK v3 clients are bundled; heavy modules this function never loads are left out.
        externalModules: OPTIONAL_MODULES.filter((m) => !(props.loads ?? []).includes(m)),
      },
    });
  }
}
