import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CfnElement, type Duration, RemovalPolicy, Stack, Tags, Validations } from 'aws-cdk-lib';
import { EndpointType } from 'aws-cdk-lib/aws-apigateway';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnLogGroup, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { IMAGE_PREFIX } from '../src/app/documents';
import { type Flow, type FlowsFile, resolveFlows } from '../src/domain/flow';
import { entryPorts, TABLE_READ_ONLY_ENTRIES } from '../src/entries';
import { functionNeeds, handlerFiles } from '../src/http/routes';
import { type BackupOptions, DataStore } from './data-store';
import { EventRouting } from './event-routing';
import { FaceLivenessIdentity } from './face-liveness-identity';
import { Operations } from './operations';
import { DecisionReceipts } from './receipts';
import { DocumentFingerprintKey } from './fingerprints';
import { type ApiThrottling, type UsagePlanLimits, VerificationsApi } from './rest-api';
import { ScheduledJobs } from './scheduled-jobs';
import { ScreeningLists } from './screening-lists';
import { parseSources, sourcesFor } from '../src/app/screening-sources';
import { ServiceFunction } from './service-function';
import { ServiceWebAcl, type WebAclLimits } from './web-acl';
import { type ExtractionPlan, extractionFunctionProps, grantExtraction, VerificationWorkflow } from './workflow';

/** config/flows.json, the flows the project's own stack deploys. */
export const FLOWS_FILE = join(__dirname, '..', 'config', 'flows.json');
/** The sanctions lists' sources (URLs are configuration): read at synth when a flow screens. */
export const SCREENING_SOURCES_FILE = join(__dirname, '..', 'config', 'screening-sources.json');

export interface IdentityVerificationServiceProps {
  /**
   * The flows and document types, in the shape of config/flows.json (validated at synth). Written into
   * the table at every deploy; a flow left out is deleted from the table. Default: config/flows.json.
   */
  flows?: FlowsFile;
  /**
   * `aws` (default): Textract and Rekognition. `offline`: the in-process engines (MRZ, PDF417, OCR,
   * faces), nothing leaves the account. `sandbox`: test mode, outcomes carried in the images; only by
   * explicit choice. A flow can name its own extractor (`"extractor": "offline"`).
   */
  extractor?: 'aws' | 'offline' | 'sandbox';
  /** The environment (`prod`, `staging`): the API's stage name, the `Stage` tag and part of the dashboard's name. Default `prod`. */
  stage?: string;
  /** Base URL written into widget links; default the URL of the request (the API's own, or the custom domain). */
  publicBaseUrl?: string;
  /** Days a deleted verification (its items and images) is kept before the purge job removes it (DELETED_RETENTION_DAYS). Default 30. */
  deletedRetentionDays?: number;
  /** Retention of every log group of the service (functions, API access logs, state machine). Default one year. */
  logRetention?: RetentionDays;
  /** Where alarms go. Default: a topic of the service's own, KMS-encrypted (output AlarmTopicArn). */
  alarmTopic?: ITopic;
  /** Alarm bounds: oldest unpublished outbox event (default 5 minutes), longest-Submitted verification (default 30 minutes). */
  alarmBounds?: { outboxAge?: Duration; submitted?: Duration };
  /** A custom domain for the API, mapped at its root: `https://<domainName>/api/v1/…`. Point a DNS alias at `domainTarget`. */
  domain?: { domainName: string; certificate: ICertificate };
  /** EDGE (default) or REGIONAL. A REGIONAL custom domain needs its certificate in the stack's region, EDGE in us-east-1. */
  endpointType?: EndpointType.EDGE | EndpointType.REGIONAL;
  /**
   * AWS WAF on the API stage: `{ webAclArn }` associates a web ACL you manage (add `widgetRateRules()` of
   * lib/web-acl.ts to it for the upload path); `{ limits }` creates one with the service's rate-based rules.
   * Default: none (stage and per-method throttling still apply).
   */
  waf?: { webAclArn: string } | { limits?: WebAclLimits };
  /** Tags added to every resource of the service (besides `Service` and `Stage`). */
  tags?: Record<string, string>;
  /** API Gateway throttling (defaults in lib/rest-api.ts DEFAULT_THROTTLING). */
  throttling?: ApiThrottling;
  /** Usage plans by name, metering each API token (lib/rest-api.ts UsagePlanLimits). Default none. */
  usagePlans?: Record<string, UsagePlanLimits>;
  /**
   * Reserved concurrency of each extraction function (ExtractDocument, PreExtract): at most this many
   * documents are read at once, which keeps Textract (default 1–5 requests per second per API, per
   * account and region) and Rekognition below their quotas, and bounds the bill. Default 5 each.
   */
  extractionConcurrency?: number;
  /** A daily AWS Backup plan (the table; the images on request). Default none: PITR keeps the table 35 days. */
  backup?: BackupOptions;
  /** The sanctions lists' sources (config/screening-sources.json's shape); default that file. Read only when a flow screens. */
  screeningSources?: unknown;
  /**
   * Amazon Rekognition Face Liveness for the flows whose `checks.liveness_provider` is `rekognition`:
   * its region (default the stack's; Face Liveness is offered in some regions only) and the confidence
   * a session needs to pass (default 90). Enabled as well, with the defaults, when a flow names
   * `rekognition`; otherwise such a flow's challenge is answered with a clear 400.
   */
  faceLiveness?: { region?: string; minConfidence?: number };
  /** The `service` dimension of the metrics and POWERTOOLS_SERVICE_NAME. Two services in one account and region need different names. Default `idv`. */
  serviceName?: string;
}

/**
 * The identity-verification service as one construct: table and image bucket (customer keys), the
 * session secret, the REST API built from the route table, the Step Functions pipeline, events and
 * webhooks, scheduled jobs, alarms and the dashboard. The project's own stack (lib/stack.ts) is one
 * of these; a platform team can place it in a stack of its own with its own props.
 */
export class IdentityVerificationService extends Construct {
  readonly data: DataStore;
  readonly api: VerificationsApi;
  readonly workflow: VerificationWorkflow;
  readonly events: EventRouting;
  readonly operations: Operations;
  readonly extractor: 'aws' | 'offline' | 'sandbox';
  /** The API's base URL: the custom domain's when there is one, the stage's otherwise. */
  readonly apiUrl: string;
  /** The host name a DNS alias (CNAME or Route 53 alias) for the custom domain points at. */
  readonly domainTarget?: string;
  readonly webAclArn?: string;

  constructor(scope: Construct, id: string, props: IdentityVerificationServiceProps = {}) {
    super(scope, id);
    const stage = props.stage ?? 'prod';
    const serviceName = props.serviceName ?? 'idv';
    const flows = resolveFlows(props.flows ?? JSON.parse(readFileSync(FLOWS_FILE, 'utf8')));
    this.data = new DataStore(this, 'Data', { flows, ...(props.backup && { backup: props.backup }) });
    const data = this.data;
    const sessionSecret = new Secret(this, 'SessionSecret', {
      description: 'HMAC key that derives each verification session token (only hashes of the tokens are stored)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      // Retained like the table: every outstanding link and the purge of deleted verifications depend on it.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(sessionSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Not rotated automatically: the stored token hashes derive from this key, so a new key would break every outstanding end-user link and the purge of deleted verifications (docs/how-to/deploy-to-production.md: what rotation would need).',
    });
    const extractor = props.extractor ?? 'aws';
    this.extractor = extractor;
    const extraction = extractionPlan(extractor, flows);
    const faceLiveness = props.faceLiveness ?? (flows.some((f) => f.checks?.liveness_provider === 'rekognition') ? {} : undefined);
    // The credentials the widget's capture (AWS's component) streams with.
    const livenessIdentity = faceLiveness && new FaceLivenessIdentity(this, 'FaceLivenessIdentity');
    const environment: Record<string, string> = {
      TABLE_NAME: data.table.tableName,
      BUCKET_NAME: data.bucket.bucketName,
      SESSION_SECRET_ARN: sessionSecret.secretArn,
      EXTRACTOR: extractor,
      POWERTOOLS_SERVICE_NAME: serviceName,
      ...(props.deletedRetentionDays !== undefined && { DELETED_RETENTION_DAYS: String(props.deletedRetentionDays) }),
      ...(props.publicBaseUrl && { PUBLIC_BASE_URL: props.publicBaseUrl }),
      ...(faceLiveness && {
        REKOGNITION_LIVENESS_REGION: faceLiveness.region ?? Stack.of(this).region,
        REKOGNITION_LIVENESS_MIN_CONFIDENCE: String(faceLiveness.minConfidence ?? 90),
        // Rekognition writes the session's images into the image bucket encrypted with its key.
        IMAGE_KEY_ID: data.imageKey.keyArn,
      }),
      ...(livenessIdentity && { REKOGNITION_LIVENESS_IDENTITY_POOL_ID: livenessIdentity.identityPoolId }),
    };
    this.events = new EventRouting(this, 'Events', {
      table: data.table,
      sessionSecret,
      environment,
      grants: { PreExtract: (fn) => grantExtraction(fn, data, extraction) },
      functions: { PreExtract: extractionFunctionProps(extraction, {}) },
    });
    this.workflow = new VerificationWorkflow(this, 'Workflow', {
      table: data.table,
      images: data,
      sessionSecret,
      environment: this.events.environment,
      extraction,
      bus: this.events.bus,
    });
    new DecisionReceipts(this, 'Receipts', { signer: this.workflow.functions.get('FinishRun')! });
    new DocumentFingerprintKey(this, 'Fingerprints', { fingerprinter: this.workflow.functions.get('EvaluateDocument')! });
    this.api = new VerificationsApi(this, 'Api', {
      table: data.table,
      images: data,
      stateMachine: this.workflow.stateMachine,
      sessionSecret,
      environment: this.events.environment,
      bus: this.events.bus,
      faceLiveness: faceLiveness !== undefined,
      stageName: stage,
      ...(props.throttling && { throttling: props.throttling }),
      ...(props.usagePlans && { usagePlans: props.usagePlans }),
      ...(props.endpointType && { endpointType: props.endpointType }),
      ...(props.domain && { domain: props.domain }),
    });
    new ScheduledJobs(this, 'Jobs', { table: data.table, images: data, sessionSecret, bus: this.events.bus, environment: this.events.environment, stateMachine: this.workflow.stateMachine });
    const screeningMaxAgeDays = this.screening(flows, props.screeningSources, sessionSecret);

    const concurrency = props.extractionConcurrency ?? 5;
    for (const fn of [this.workflow.functions.get('ExtractDocument'), this.events.node.tryFindChild('PreExtractFunction')]) {
      if (!(fn instanceof ServiceFunction)) throw new Error('extraction function not found');
      (fn.node.defaultChild as CfnFunction).reservedConcurrentExecutions = concurrency;
    }

    // Last: it finds every function to alarm on and gives the asynchronously invoked ones a failure destination.
    this.operations = new Operations(this, 'Operations', {
      api: this.api.api,
      stateMachine: this.workflow.stateMachine,
      table: data.table,
      deadLetterQueues: { WebhookDeadLetters: this.events.deadLetterQueue },
      serviceName,
      dashboardName: id === 'Default' ? `${Stack.of(this).stackName}-operations` : `${Stack.of(this).stackName}-${id}-operations`,
      ...(props.alarmTopic && { alarmTopic: props.alarmTopic }),
      ...(props.alarmBounds?.outboxAge && { outboxAgeBound: props.alarmBounds.outboxAge }),
      ...(props.alarmBounds?.submitted && { submittedBound: props.alarmBounds.submitted }),
      ...(screeningMaxAgeDays !== undefined && { screeningMaxAgeDays }),
    });

    this.grantTableKey();
    if (props.waf) this.webAclArn = this.protect(props.waf);
    const domainName = this.api.api.domainName;
    this.apiUrl = domainName ? `https://${props.domain?.domainName}/` : this.api.api.url;
    if (domainName) this.domainTarget = domainName.domainNameAliasDomainName;
    this.setLogRetention(props.logRetention ?? RetentionDays.ONE_YEAR);
    Tags.of(this).add('Service', serviceName);
    Tags.of(this).add('Stage', stage);
    for (const [key, value] of Object.entries(props.tags ?? {})) Tags.of(this).add(key, value);
    acknowledgeServiceWide(this, data);
  }

  /**
   * Sanctions screening, when a flow screens (`checks.screening`): the snapshot bucket and the refresh
   * job for the lists the flows name (sources from config/screening-sources.json, or the prop), and
   * the pipeline's read of the snapshots. Answers the smallest max_age_days of the flows (the
   * stale-list alarm's bound), undefined when no flow screens.
   */
  private screening(flows: Flow[], raw: unknown, sessionSecret: Secret): number | undefined {
    const policies = flows.flatMap((f) => (f.checks?.screening ? [f.checks.screening] : []));
    if (policies.length === 0) return undefined;
    const sources = parseSources(raw ?? JSON.parse(readFileSync(SCREENING_SOURCES_FILE, 'utf8')));
    const named = [...new Set(policies.flatMap((p) => p.lists))];
    const missing = named.filter((l) => !sources.lists[l]);
    if (missing.length > 0) throw new Error(`flows screen against ${missing.join(', ')}, which config/screening-sources.json gives no source for`);
    const lists = new ScreeningLists(this, 'Screening', {
      table: this.data.table,
      sessionSecret,
      bus: this.events.bus,
      environment: this.events.environment,
      sources: { lists: Object.fromEntries(sourcesFor(sources, named).map((s) => [s.list, { files: s.files }])), change_band: sources.change_band },
    });
    const evaluate = this.workflow.functions.get('EvaluateDocument');
    if (!evaluate) throw new Error('EvaluateDocument function not found');
    evaluate.addEnvironment('SCREENING_BUCKET', lists.bucket.bucketName);
    lists.grantRead(evaluate);
    // The lists' index is built in the function on its first screening (OFAC and UN: tens of thousands of names).
    (evaluate.node.defaultChild as CfnFunction).memorySize = 1536;
    return Math.min(...policies.map((p) => p.max_age_days));
  }

  /** Every function that reads or writes the table uses its key: the API's by their routes' needs, the others write (src/entries.ts). */
  private grantTableKey(): void {
    const api = new Set(handlerFiles());
    for (const fn of this.node.findAll().filter((c): c is ServiceFunction => c instanceof ServiceFunction)) {
      if (fn.file === 'authorizer') this.data.grantTableKey(fn, 'read');
      else if (api.has(fn.file)) {
        const access = functionNeeds(fn.file).table;
        if (access) this.data.grantTableKey(fn, access);
      } else if (entryPorts(fn.file).length > 0) this.data.grantTableKey(fn, TABLE_READ_ONLY_ENTRIES.has(fn.file) ? 'read' : 'write');
    }
  }

  /** Associates a web ACL with the API stage: the deployer's, or one created with the service's rate-based rules. */
  private protect(waf: NonNullable<IdentityVerificationServiceProps['waf']>): string {
    const arn = 'webAclArn' in waf ? waf.webAclArn : new ServiceWebAcl(this, 'WebAcl', { ...(waf.limits && { limits: waf.limits }) }).webAcl.attrArn;
    const association = new CfnWebACLAssociation(this, 'WebAclAssociation', { resourceArn: this.api.api.deploymentStage.stageArn, webAclArn: arn });
    association.node.addDependency(this.api.api.deploymentStage);
    return arn;
  }

  /** One retention for every log group of the service (ServiceFunction creates its own with a year's). */
  private setLogRetention(retention: RetentionDays): void {
    for (const group of this.node.findAll().filter((c): c is LogGroup => c instanceof LogGroup)) {
      (group.node.defaultChild as CfnLogGroup).retentionInDays = retention === RetentionDays.INFINITE ? undefined : retention;
    }
  }
}

/** Which extractors the extraction functions carry: the service's default and any a flow names. */
function extractionPlan(extractor: ExtractionPlan['extractor'], flows: Flow[]): ExtractionPlan {
  return {
    extractor,
    aws: extractor === 'aws' || flows.some((f) => f.extractor === 'aws'),
    offline: extractor === 'offline' || flows.some((f) => f.extractor === 'offline'),
  };
}

/**
 * Findings accepted for the service, each with its reason. Some concern resources CDK places at the
 * stack's root (the custom-resource provider, the API Gateway logging role), so they are acknowledged
 * on the stack.
 */
function acknowledgeServiceWide(service: IdentityVerificationService, data: DataStore): void {
  const stack = Stack.of(service);
  const acks: [string, string][] = [
    [
      `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(data.table.node.defaultChild as CfnElement)}.Arn>/index/*]`,
      "CDK table grants name this table's own indexes (list by flow, list all); no other table.",
    ],
    [
      `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(data.bucket.node.defaultChild as CfnElement)}.Arn>/${IMAGE_PREFIX}*]`,
      'Image objects have generated keys under documents/ in this bucket only; functions get object-level actions there and nothing else.',
    ],
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
    ['AwsSolutions-APIG3', 'WAF is an operator choice per deployment (the `waf` prop: an ACL of yours, or one with the service\'s rate-based rules).'],
    ['AwsSolutions-IAM5[Resource::*]', "Active tracing grants X-Ray's trace-writing actions, which take no resource; a test checks that nothing else is granted on every resource."],
    ['AwsSolutions-COG4', 'Clients authenticate with bearer API tokens through the Lambda TOKEN authorizer, not Cognito.'],
  ];
  for (const [id, reason] of acks) Validations.of(stack).acknowledge({ id, reason });
}
