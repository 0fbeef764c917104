import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CfnElement, CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { resolveFlows } from '../src/domain/flow';
import { DataStore } from './data-store';
import { IMAGE_PREFIX } from '../src/app/documents';
import { EventRouting } from './event-routing';
import { Operations } from './operations';
import { DecisionReceipts } from './receipts';
import { ScheduledJobs } from './scheduled-jobs';
import { VerificationsApi } from './rest-api';
import { type ExtractionPlan, extractionFunctionProps, grantExtraction, VerificationWorkflow } from './workflow';

export interface IdvStackProps extends StackProps {
  /** Base URL written into widget links; defaults to the URL of the request (the API's own). */
  publicBaseUrl?: string;
  /**
   * `aws` (default): Textract and Rekognition. `offline`: the in-process engines (MRZ, PDF417, OCR,
   * faces), nothing leaves the account. `sandbox`: test mode, outcomes carried in the images; only ever
   * by explicit choice (`cdk deploy -c extractor=sandbox`), and shown in the stack outputs. A flow can
   * name its own extractor in config/flows.json (`"extractor": "offline"`).
   */
  extractor?: 'aws' | 'offline' | 'sandbox';
}

/** The whole service: data store, workflow, REST API. */
export class IdvStack extends Stack {
  constructor(scope: Construct, id: string, props: IdvStackProps = {}) {
    super(scope, id, props);
    const flows = resolveFlows(JSON.parse(readFileSync(join(__dirname, '..', 'config', 'flows.json'), 'utf8')));
    const data = new DataStore(this, 'Data', { flows });
    const sessionSecret = new Secret(this, 'SessionSecret', {
      description: 'HMAC key that derives each verification session token (only hashes of the tokens are stored)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      // Retained like the table: every outstanding link and the purge of deleted verifications depend on it.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(sessionSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating this HMAC key would invalidate every outstanding end-user link; rotate by hand with a planned cut-over.',
    });
    const extractor = props.extractor ?? 'aws';
    const extraction: ExtractionPlan = {
      extractor,
      aws: extractor === 'aws' || flows.some((f) => f.extractor === 'aws'),
      offline: extractor === 'offline' || flows.some((f) => f.extractor === 'offline'),
    };
    const environment: Record<string, string> = {
      TABLE_NAME: data.table.tableName,
      BUCKET_NAME: data.bucket.bucketName,
      SESSION_SECRET_ARN: sessionSecret.secretArn,
      EXTRACTOR: extractor,
      POWERTOOLS_SERVICE_NAME: 'idv',
      ...(props.publicBaseUrl && { PUBLIC_BASE_URL: props.publicBaseUrl }),
    };
    const events = new EventRouting(this, 'Events', {
      table: data.table,
      sessionSecret,
      environment,
      grants: { PreExtract: (fn) => grantExtraction(fn, data, extraction) },
      functions: { PreExtract: extractionFunctionProps(extraction, {}) },
    });
    const workflow = new VerificationWorkflow(this, 'Workflow', {
      table: data.table,
      images: data,
      sessionSecret,
      environment: events.environment,
      extraction,
      bus: events.bus,
    });
    new DecisionReceipts(this, 'Receipts', { signer: workflow.functions.get('FinishRun')! });
    const api = new VerificationsApi(this, 'Api', {
      table: data.table,
      images: data,
      stateMachine: workflow.stateMachine,
      sessionSecret,
      environment: events.environment,
      bus: events.bus,
    });

    acknowledgeStackWide(this, [
      [
        `AwsSolutions-IAM5[Resource::<${this.getLogicalId(data.table.node.defaultChild as CfnElement)}.Arn>/index/*]`,
        'CDK table grants name this table\'s own indexes (list by flow, list all); no other table.',
      ],
      [
        `AwsSolutions-IAM5[Resource::<${this.getLogicalId(data.bucket.node.defaultChild as CfnElement)}.Arn>/${IMAGE_PREFIX}*]`,
        'Image objects have generated keys under documents/ in this bucket only; functions get object-level actions there and nothing else.',
      ],
    ]);
    new ScheduledJobs(this, 'Jobs', { table: data.table, images: data, sessionSecret, bus: events.bus, environment: events.environment, stateMachine: workflow.stateMachine });
    // Last: it finds every function to alarm on and gives the asynchronously invoked ones a failure destination.
    const operations = new Operations(this, 'Operations', { api: api.api, stateMachine: workflow.stateMachine, table: data.table, deadLetterQueues: { WebhookDeadLetters: events.deadLetterQueue } });
    new CfnOutput(this, 'AlarmTopicArn', { value: operations.alarmTopic.topicArn, description: 'Subscribe to receive the service\'s alarms' });
    new CfnOutput(this, 'ApiUrl', { value: api.api.url });
    new CfnOutput(this, 'TableName', { value: data.table.tableName });
    new CfnOutput(this, 'BucketName', { value: data.bucket.bucketName });
    new CfnOutput(this, 'EventBusName', { value: events.bus.eventBusName });
    new CfnOutput(this, 'StateMachineArn', { value: workflow.stateMachine.stateMachineArn });
    new CfnOutput(this, 'Extractor', {
      value: extractor,
      description: {
        sandbox: 'TEST MODE: outcomes come from sandbox payloads in the images',
        aws: 'Amazon Textract and Rekognition',
        offline: 'Offline engines in the extraction functions (no document leaves the account)',
      }[extractor],
    });
  }
}

/** Findings accepted for the whole stack, each with its reason. */
function acknowledgeStackWide(stack: Stack, specific: [string, string][]): void {
  const acks: [string, string][] = [
    ...specific,
    [
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'The AWS-managed basic execution policy grants CloudWatch Logs writes only.',
    ],
    [
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'The account-level API Gateway logging role uses the AWS-managed logging policy, as AWS documents.',
    ],
    ['AwsSolutions-L1', 'Functions run nodejs22.x on purpose (the local runtime and tests run the same major); the custom-resource provider runtime is managed by CDK.'],
    ['AwsSolutions-APIG2', 'Requests are validated in each Lambda with valibot so that errors follow the spec (422 with field paths); API Gateway validators would answer in another shape.'],
    ['AwsSolutions-APIG3', 'WAF is an operator choice per deployment (cost, rules); attach a web ACL to the stage where needed.'],
    ['AwsSolutions-IAM5[Resource::*]', 'Active tracing grants X-Ray\'s trace-writing actions, which take no resource; a test checks that nothing else is granted on every resource.'],
    ['AwsSolutions-COG4', 'Clients authenticate with bearer API tokens through the Lambda TOKEN authorizer, not Cognito.'],
  ];
  for (const [id, reason] of acks) Validations.of(stack).acknowledge({ id, reason });
}
