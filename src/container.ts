import { DynamoDocumentRepository } from './adapters/dynamodb/document-repository';
import { DynamoFlowRepository } from './adapters/dynamodb/flow-repository';
import { DynamoTokenRepository } from './adapters/dynamodb/token-repository';
import { DynamoVerificationRepository } from './adapters/dynamodb/verification-repository';
import { SystemClock, UlidGenerator } from './adapters/ids';
import { S3BlobStore } from './adapters/s3/blob-store';
import { loadSessionSecret } from './adapters/secrets/session-secret';
import { SandboxExtractor } from './adapters/sandbox/extractor';
import { SfnWorkflowStarter } from './adapters/sfn/workflow-starter';
import { TextractExtractor } from './adapters/textract/extractor';
import type { Deps } from './app/deps';
import { createClients } from './clients';
import * as v from 'valibot';
import ruleThresholds from '../config/rules.json';
import { loadConfig } from './config';
import { RuleThresholdsSchema } from './domain/rules';
import { logger } from './logger';
import type { WorkflowStarter } from './ports/workflow-starter';

let deps: Promise<Deps> | undefined;
let localWorkflow: WorkflowStarter | undefined;

/**
 * The local runtime supplies its in-process workflow runner here (WORKFLOW=local), so that Lambda
 * bundles never contain the local runner.
 */
export function useLocalWorkflow(workflow: WorkflowStarter): void {
  localWorkflow = workflow;
  deps = undefined;
}

async function build(): Promise<Deps> {
  const config = loadConfig(process.env);
  const clients = createClients(config);
  const table = config.TABLE_NAME;
  let workflow: WorkflowStarter;
  if (config.WORKFLOW === 'local') {
    if (!localWorkflow) throw new Error('WORKFLOW=local needs the local runtime (npm start) to supply its runner');
    workflow = localWorkflow;
  } else if (config.WORKFLOW === 'none') {
    workflow = {
      start: async () => {
        throw new Error('this function does not start workflows (WORKFLOW=none)');
      },
    };
  } else {
    workflow = new SfnWorkflowStarter(clients.sfn, config.STATE_MACHINE_ARN ?? '');
  }
  const sessionSecret = config.SESSION_SECRET
    ? Buffer.from(config.SESSION_SECRET, 'utf8')
    : await loadSessionSecret(clients.secrets, config.SESSION_SECRET_ARN ?? '');
  const blobs = new S3BlobStore(clients.s3, clients.s3Presign, config.BUCKET_NAME, logger);
  const extractor =
    config.EXTRACTOR === 'sandbox' ? new SandboxExtractor(blobs) : new TextractExtractor(clients.textract, clients.rekognition, config.BUCKET_NAME);
  return {
    verifications: new DynamoVerificationRepository(clients.doc, table),
    documents: new DynamoDocumentRepository(clients.doc, table),
    flows: new DynamoFlowRepository(clients.doc, table),
    tokens: new DynamoTokenRepository(clients.doc, table),
    blobs,
    extractor,
    ruleThresholds: v.parse(RuleThresholdsSchema, ruleThresholds),
    workflow,
    // pdf-lib is loaded only by the function that renders reports.
    reports: async () => new (await import('./adapters/pdf/report-renderer')).PdfLibReportRenderer(),
    clock: new SystemClock(),
    ids: new UlidGenerator(),
    sessionSecret,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    deletedRetentionDays: config.DELETED_RETENTION_DAYS,
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
