import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { IdvStack } from '../../lib/stack';
import { functionNeeds, handlerFiles, routes } from '../../src/http/routes';
import { constructName, ServiceFunction } from '../../lib/service-function';
import { functionParts, functionPorts } from '../../lib/bundling';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { ENTRY_PORTS } from '../../src/entries';
import { RUN_TIMEOUT_SECONDS, WORKFLOW_TASKS } from '../../statemachines/tasks';
import { SWEEP_POLICY } from '../../functions/jobs/sweep-runs';
import { EVENT_RULES, EVENT_SOURCE } from '../../src/events/events';

// Asset bundling is skipped in unit tests (no esbuild run); `cdk synth` bundles for real. The feature flags are cdk.json's.
const app = new App({ context: { ...JSON.parse(readFileSync(join(__dirname, '..', '..', 'cdk.json'), 'utf8')).context, 'aws:cdk:bundling-stacks': [] } });
const stack = new IdvStack(app, 'TestStack', { env: { account: '123456789012', region: 'eu-west-1' } });
const template = Template.fromStack(stack);

describe('data store', () => {
  it('has one on-demand table with PITR, deletion protection, TTL, the two list indexes, the expiry index and the status/search index', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        Match.objectLike({ IndexName: 'GSI1', Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['total'] } }),
        Match.objectLike({ IndexName: 'GSI2', Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['total'] } }),
        Match.objectLike({ IndexName: 'GSI3', Projection: { ProjectionType: 'KEYS_ONLY' } }),
        Match.objectLike({ IndexName: 'GSI4', Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['total', 'flow', 'status'] } }),
      ],
    });
  });

  it('keeps images in a private, TLS-only bucket encrypted with a KMS key of its own', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [Match.objectLike({ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: Match.anyValue() }, BucketKeyEnabled: true })],
      },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 'images/' }),
    });
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('seeds each configured flow into the table with a custom resource', () => {
    const seeds = template.findResources('Custom::AWS');
    const bodies = Object.values(seeds).map((r) => JSON.stringify(r.Properties.Create));
    expect(bodies.some((b) => b.includes('FLOW#default'))).toBe(true);
    expect(bodies.some((b) => b.includes('FLOW#photo-id'))).toBe(true);
  });
});

describe('API', () => {
  it('has one nodejs22.x function per handler file, the authorizer, one per workflow task and the two webhook functions; arm64 but for the report', () => {
    const fns = template.findResources('AWS::Lambda::Function', { Properties: { Runtime: 'nodejs22.x' } });
    // + the webhook delivery, 6 scheduled jobs (the sanctions lists' refresh among them) and the execution-ended function.
    expect(Object.keys(fns)).toHaveLength(handlerFiles().length + 1 + WORKFLOW_TASKS.length + EVENT_RULES.length + 1 + 6 + 1);
    for (const [logicalId, fn] of Object.entries(fns)) {
      // The PDF report packages sharp and pdf.js binaries built on the x86_64 build machine; so does the console's pdf.js asset function (the same packaging).
      expect(fn.Properties.Architectures).toEqual([logicalId.includes('DownloadDocumentPdf') ? 'x86_64' : 'arm64']);
      const env = fn.Properties.Environment.Variables;
      expect(env).toMatchObject({ POWERTOOLS_SERVICE_NAME: 'idv' });
      expect(env.WORKFLOW).toBeUndefined();
    }
  });

  it("tells every function the table's and the bucket's names, the extractor setting and the session secret's ARN only when it holds what uses them", () => {
    const functions = stack.node.findAll().filter((c): c is ServiceFunction => c instanceof ServiceFunction);
    const told = functions.map((fn) => {
      const env = template.toJSON().Resources[stack.getLogicalId(fn.node.defaultChild as CfnFunction)].Properties.Environment.Variables as Record<string, string>;
      const parts = functionParts(fn.file);
      const ports = functionPorts(fn.file);
      return [fn.file, 'TABLE_NAME' in env === parts.includes('dynamodb'), 'BUCKET_NAME' in env === parts.includes('s3'), env.EXTRACTOR === (parts.includes('extractors') ? 'aws' : undefined), 'DELETED_RETENTION_DAYS' in env === false || ports.includes('deletedRetentionDays'), 'SESSION_SECRET_ARN' in env === ports.includes('sessionSecret')];
    });
    expect(told).toEqual(functions.map((fn) => [fn.file, true, true, true, true, true]));
    const names = (file: string) => {
      const fn = functions.find((f) => f.file === file)!;
      return Object.keys(template.toJSON().Resources[stack.getLogicalId(fn.node.defaultChild as CfnFunction)].Properties.Environment.Variables).filter((k) => k === 'TABLE_NAME' || k === 'BUCKET_NAME');
    };
    expect([names('api/get-caller'), names('widget/console'), names('api/get-openapi'), names('authorizer'), names('api/get-verification')]).toEqual([[], [], [], ['TABLE_NAME'], ['TABLE_NAME', 'BUCKET_NAME']]);
  });

  it('exposes every route of the route table, all behind the cached token authorizer but health and the OpenAPI document', () => {
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', { Type: 'TOKEN', AuthorizerResultTtlInSeconds: 300 });
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method')).filter((m) => m.Properties.HttpMethod !== 'OPTIONS');
    expect(methods).toHaveLength(routes.length);
    const open = methods.filter((m) => m.Properties.AuthorizationType === 'NONE');
    expect(open.map((m) => m.Properties.OperationName).sort()).toEqual(routes.filter((r) => !r.auth).map((r) => r.operation).sort());
    expect(open.map((m) => m.Properties.OperationName)).toEqual(expect.arrayContaining(['getOpenApi', 'health', 'getWidgetPage', 'submitWidget']));
    expect(methods.filter((m) => m.Properties.AuthorizationType === 'CUSTOM')).toHaveLength(routes.filter((r) => r.auth).length);
    expect(methods.map((m) => m.Properties.OperationName).sort()).toEqual(routes.map((r) => r.operation).sort());
  });

  it('answers API Gateway errors as JSON: 401 Unauthorized and 404 for unknown routes', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      StatusCode: '401',
      ResponseTemplates: { 'application/json': '{"message":"Unauthorized"}' },
    });
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', { ResponseType: 'MISSING_AUTHENTICATION_TOKEN', StatusCode: '404' });
  });

  it('answers 503 (retryable), never 401 or 500, when the authorizer cannot check a token', () => {
    for (const type of ['AUTHORIZER_FAILURE', 'AUTHORIZER_CONFIGURATION_ERROR']) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: '503',
        ResponseParameters: { 'gatewayresponse.header.Retry-After': "'1'" },
        ResponseTemplates: { 'application/json': '{"message":"The service is busy; retry in a moment"}' },
      });
    }
  });

  it('lets only the pipeline-starting functions start executions', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p).includes('states:StartExecution'));
    expect(policies).toHaveLength(5); // submit, resubmit, update (Double Check), the widget's submit and the run sweeper
  });

  it('runs the fail-run logic on executions that failed, timed out or were aborted (a timeout cannot be caught)', () => {
    const [smId] = Object.keys(template.findResources('AWS::StepFunctions::StateMachine'));
    template.hasResourceProperties('AWS::StepFunctions::StateMachine', { DefinitionString: Match.anyValue() });
    const rules = Object.values(template.findResources('AWS::Events::Rule')).filter((r) => JSON.stringify(r).includes('aws.states'));
    expect(rules).toHaveLength(1);
    expect(rules[0]!.Properties.EventPattern).toEqual({
      source: ['aws.states'],
      'detail-type': ['Step Functions Execution Status Change'],
      detail: { status: ['FAILED', 'TIMED_OUT', 'ABORTED'], stateMachineArn: [{ Ref: smId }] },
    });
    expect(rules[0]!.Properties.EventBusName).toBeUndefined();
    const target = rules[0]!.Properties.Targets[0];
    expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86400 });
    expect(target.Arn['Fn::GetAtt'][0]).toMatch(/^WorkflowExecutionEndedFunction/);
  });

  it('times executions out (then the rule above fails them) before the run sweeper calls a live run lost', () => {
    const [sm] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
    expect(JSON.stringify(sm!.Properties.DefinitionString)).toContain(`TimeoutSeconds\\": ${RUN_TIMEOUT_SECONDS}`);
    expect(SWEEP_POLICY.maxRunSeconds).toBeGreaterThan(RUN_TIMEOUT_SECONDS);
  });

  it('deploys the checked-in state machine file with every task substituted, logging and tracing', () => {
    template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: Match.objectLike({ Level: 'ALL', IncludeExecutionData: false }),
    });
    const [sm] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
    expect(Object.keys(sm!.Properties.DefinitionSubstitutions).sort()).toEqual(WORKFLOW_TASKS.map((t) => t.substitution).sort());
    expect(JSON.stringify(sm!.Properties.DefinitionString)).toContain('ProcessDocuments');
  });

  it('lets only the extraction task and the upload-time extraction call Textract and Rekognition', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p).includes('textract:AnalyzeID'));
    expect(policies).toHaveLength(2);
    expect(JSON.stringify(policies[0])).toContain('rekognition:CompareFaces');
  });
});

/** The IAM statements of one function's role, found by its construct id. */
function statementsOf(constructId: string): { Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, string[]>> }[] {
  const fns = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) => id.startsWith(constructId) && /^[0-9A-F]{8}$/.test(id.slice(constructId.length)));
  expect(fns).toHaveLength(1);
  const roleRef = fns[0]![1].Properties.Role['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleRef))
    .flatMap((p) => p.Properties.PolicyDocument.Statement)
    .filter((st: { Action: string | string[] }) => !isTraceWriting(st));
}
/** The statement active tracing adds to every function (asserted on its own in "traces every function"). */
const TRACE_ACTIONS = ['xray:GetSamplingRules', 'xray:GetSamplingTargets', 'xray:PutTelemetryRecords', 'xray:PutTraceSegments'];
const isTraceWriting = (st: { Action: string | string[] }) => [st.Action].flat().every((a) => TRACE_ACTIONS.includes(a));
const actionsOf = (constructId: string) => [...new Set(statementsOf(constructId).flatMap((st) => [st.Action].flat()))].sort();

describe('least privilege from the route table', () => {
  // The table is encrypted with its own key: readers decrypt with it, writers encrypt too.
  const TABLE_KEY_READ = ['kms:Decrypt', 'kms:DescribeKey'];
  const TABLE_KEY_WRITE = [...TABLE_KEY_READ, 'kms:Encrypt', 'kms:GenerateDataKey'];
  const READ = ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query', ...TABLE_KEY_READ];
  const WRITE = [...READ, 'dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', ...TABLE_KEY_WRITE];
  const SECRET = ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'];
  const IMAGES_READ = ['kms:Decrypt', 's3:GetObject'];
  const IMAGES_WRITE = ['kms:Decrypt', 'kms:GenerateDataKey', 's3:DeleteObject', 's3:GetObject', 's3:PutObject'];
  const EVENTS = ['events:PutEvents'];
  const START = ['states:StartExecution'];
  /** Written out by hand, per function: a route that gains a need must change this table too. */
  const EXPECTED: Record<string, string[]> = {
    'api/health': READ,
    'api/get-openapi': [],
    'api/get-caller': [],
    'widget/console-pdfjs': [],
    'api/list-flows': READ,
    'api/get-flow-configuration': READ,
    'api/list-verifications': [...READ, ...SECRET],
    'api/create-verification': [...WRITE, ...SECRET],
    'api/get-verification': [...READ, ...SECRET, ...IMAGES_READ],
    'api/get-verification-receipt': READ,
    'api/update-verification': [...WRITE, ...SECRET, ...EVENTS, ...START],
    'api/delete-verification': WRITE,
    'api/submit-verification': [...WRITE, ...SECRET, ...IMAGES_READ, ...EVENTS, ...START],
    'api/resubmit-verification': [...WRITE, ...SECRET, ...IMAGES_READ, ...EVENTS, ...START],
    'api/approve-verification': [...WRITE, ...SECRET, ...IMAGES_READ, ...EVENTS],
    'api/reject-verification': [...WRITE, ...SECRET, ...IMAGES_READ, ...EVENTS],
    'api/cancel-verification': [...WRITE, ...SECRET, ...IMAGES_READ, ...EVENTS],
    'api/create-document': [...WRITE, ...IMAGES_WRITE, ...EVENTS],
    'api/get-document': [...READ, ...IMAGES_READ],
    'api/get-document-liveness': [...READ, ...IMAGES_READ],
    'api/update-document': [...WRITE, ...IMAGES_WRITE, ...EVENTS],
    'api/delete-document': [...WRITE, ...IMAGES_WRITE],
    'api/download-document-pdf': [...WRITE, ...IMAGES_READ],
    'api/create-webhook': WRITE,
    'api/list-webhooks': READ,
    'api/delete-webhook': WRITE,
    'api/list-webhook-deliveries': READ,
    'api/retry-webhook-delivery': WRITE,
    'api/clear-screening-hit': [...WRITE, ...SECRET, ...IMAGES_READ],
    // Images: Rekognition writes a Face Liveness session's images as the function that created the session.
    'widget/liveness-challenge': [...WRITE, ...SECRET, ...IMAGES_WRITE],
    'widget/liveness-session': [...WRITE, ...SECRET, ...IMAGES_WRITE, ...EVENTS],
    'widget/liveness-frames': [...WRITE, ...SECRET, ...IMAGES_WRITE, ...EVENTS],
    'widget/page': [...READ, ...SECRET],
    'widget/qr': [...READ, ...SECRET],
    'widget/get-session': [...READ, ...SECRET],
    'widget/upload-document': [...WRITE, ...SECRET, ...IMAGES_WRITE, ...EVENTS],
    'widget/delete-document': [...WRITE, ...SECRET, ...IMAGES_WRITE],
    'widget/submit': [...WRITE, ...SECRET, ...IMAGES_READ, ...EVENTS, ...START],
    'widget/asset': [],
    'widget/console': [],
    'docs/reference': [],
  };

  it('covers every function of the API', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(handlerFiles().sort());
  });

  it.each(Object.entries(EXPECTED))('grants %s exactly the actions its routes declare', (file, expected) => {
    expect(actionsOf(`Api${constructName(file)}Function`)).toEqual([...new Set(expected)].sort());
  });

  it('never grants Scan to an API function or the authorizer', () => {
    for (const file of [...handlerFiles(), 'authorizer']) expect(actionsOf(`Api${constructName(file)}Function`)).not.toContain('dynamodb:Scan');
  });

  it('lets the authorizer only read API token items, by key (and decrypt with the table key)', () => {
    const statements = statementsOf('ApiAuthorizerFunction').filter((st) => ![st.Action].flat().every((a) => a.startsWith('kms:')));
    expect(actionsOf('ApiAuthorizerFunction').filter((a) => a.startsWith('kms:'))).toEqual(['kms:Decrypt', 'kms:DescribeKey']);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Action: 'dynamodb:GetItem', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['TOKEN#*'] } } });
    expect(JSON.stringify(statements[0]!.Resource)).not.toContain('index');
  });

  it('holds the public widget functions to their verification items: no API tokens, no webhooks, no index', () => {
    for (const file of handlerFiles().filter((f) => f.startsWith('widget/') && functionNeeds(f).table)) {
      const tableStatements = statementsOf(`Api${constructName(file)}Function`).filter((st) => [st.Action].flat().some((a) => a.startsWith('dynamodb:')));
      expect(tableStatements).toHaveLength(1);
      const prefixes = tableStatements[0]!.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] ?? [];
      expect(prefixes).toEqual(expect.arrayContaining(['VER#*', 'SESSION#*', 'FLOW#*']));
      for (const forbidden of ['TOKEN#', 'TOKENNAME#', 'HOOKS#', 'WHK#', 'IDEM#']) expect(prefixes.some((p) => p.startsWith(forbidden) || p === '*')).toBe(false);
      expect(JSON.stringify(tableStatements[0]!.Resource)).not.toContain('index');
    }
  });

  it('tells each API function only the secret and state machine its routes declare', () => {
    for (const file of [...handlerFiles(), 'authorizer']) {
      const [, fn] = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith(`Api${constructName(file)}Function`))!;
      const env = fn.Properties.Environment.Variables;
      const ports: string[] = file === 'authorizer' ? ['tokens'] : functionNeeds(file).ports;
      expect([file, env.SESSION_SECRET_ARN !== undefined]).toEqual([file, ports.includes('sessionSecret')]);
      expect([file, env.STATE_MACHINE_ARN !== undefined]).toEqual([file, ports.includes('workflow')]);
    }
  });

  it('lets only the functions that mint or check widget links read the session secret', () => {
    const readers = handlerFiles().filter((f) => actionsOf(`Api${constructName(f)}Function`).includes('secretsmanager:GetSecretValue'));
    expect(readers.sort()).toEqual(handlerFiles().filter((f) => functionNeeds(f).ports.includes('sessionSecret')).sort());
    expect(readers).not.toContain('api/health');
    expect(actionsOf('ApiAuthorizerFunction')).not.toContain('secretsmanager:GetSecretValue');
  });
});

describe('least privilege outside the API', () => {
  const OTHERS = template.findResources('AWS::Lambda::Function');
  const otherIds = Object.keys(OTHERS).filter((id) => /^(Workflow|Events|Jobs)\w+Function[0-9A-F]{8}$/.test(id)).map((id) => id.slice(0, -8));

  it('finds the workflow tasks, event consumers and jobs', () => {
    expect(otherIds.length).toBe(WORKFLOW_TASKS.length + 1 + EVENT_RULES.length + 1 + 5);
  });

  it('lets only the purge job (it removes the session item by its hash) read the session secret', () => {
    expect(otherIds.filter((id) => actionsOf(id).includes('secretsmanager:GetSecretValue')).sort()).toEqual(['JobsPurgeDeletedFunction']);
  });

  it('lets only FinishRun sign decision receipts', () => {
    expect(otherIds.filter((id) => actionsOf(id).includes('kms:Sign'))).toEqual(['WorkflowFinishRunFunction']);
  });

  it('lets only EvaluateDocument make duplicate-document fingerprints, with a retained KMS HMAC key it is told', () => {
    expect(otherIds.filter((id) => actionsOf(id).includes('kms:GenerateMac'))).toEqual(['WorkflowEvaluateDocumentFunction']);
    const apiIds = Object.keys(OTHERS).filter((id) => id.startsWith('Api')).map((id) => id.slice(0, -8));
    expect(apiIds.filter((id) => actionsOf(id).includes('kms:GenerateMac'))).toEqual([]);
    template.hasResource('AWS::KMS::Key', { Properties: Match.objectLike({ KeySpec: 'HMAC_256', KeyUsage: 'GENERATE_VERIFY_MAC' }), DeletionPolicy: 'Retain' });
    const evaluate = Object.entries(OTHERS).find(([id]) => id.startsWith('WorkflowEvaluateDocumentFunction'))![1];
    expect(Object.keys(evaluate.Properties.Environment.Variables)).toContain('FINGERPRINT_KEY_ID');
  });

  it('lets only the functions that commit events publish them', () => {
    expect(otherIds.filter((id) => actionsOf(id).includes('events:PutEvents')).sort()).toEqual(
      ['JobsPublishOutboxFunction', 'JobsSweepRunsFunction', 'WorkflowExecutionEndedFunction', 'WorkflowFailRunFunction', 'WorkflowFinishRunFunction'].sort(),
    );
  });

  it('never grants Scan', () => {
    for (const id of otherIds) expect(actionsOf(id)).not.toContain('dynamodb:Scan');
  });
});

describe('events and webhooks', () => {
  it('has a custom bus whose rule pattern is the shared one, targeting the dispatch function with retries and a DLQ', () => {
    template.resourceCountIs('AWS::Events::EventBus', 1);
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: [EVENT_SOURCE], 'detail-type': ['DocumentUploaded'] },
    });
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: [EVENT_SOURCE], 'detail-type': ['DocumentUploaded', 'VerificationFinished', 'VerificationCanceled', 'ScreeningHit'] },
      Targets: [Match.objectLike({ RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86400 }, DeadLetterConfig: Match.anyValue() })],
    });
  });

  it('has an encrypted, TLS-only delivery queue with a dead-letter queue consumed with batch item failures', () => {
    // The delivery queue and its dead letters, and the failure destination of asynchronous invocations (Operations).
    template.resourceCountIs('AWS::SQS::Queue', 3);
    template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true, RedrivePolicy: Match.objectLike({ maxReceiveCount: 5 }) });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionResponseTypes: ['ReportBatchItemFailures'] });
  });

  it('gives every publishing function the bus name and PutEvents on that bus only', () => {
    const fns = Object.values(template.findResources('AWS::Lambda::Function', { Properties: { Runtime: 'nodejs22.x' } }));
    for (const fn of fns) expect(fn.Properties.Environment.Variables.EVENT_BUS_NAME).toBeDefined();
    const putEvents = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p).includes('events:PutEvents'));
    // The API functions whose routes declare the `events` port and the other functions that declare it (src/entries.ts).
    expect(putEvents.length).toBe(
      handlerFiles().filter((f) => functionNeeds(f).ports.includes('events')).length + Object.values(ENTRY_PORTS).filter((p) => (p as readonly string[]).includes('events')).length,
    );
  });
});

describe('scheduled jobs', () => {
  it('runs the expiry and purge jobs every hour and the outbox publisher every minute', () => {
    const schedules = Object.values(template.findResources('AWS::Events::Rule', { Properties: { ScheduleExpression: 'rate(1 hour)' } }));
    expect(schedules).toHaveLength(2);
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 minute)' });
  });

  it('runs the run sweeper every minute, able to start executions and read their state, and nothing else of Step Functions', () => {
    const fns = template.findResources('AWS::Lambda::Function');
    const [sweeperId, sweeper] = Object.entries(fns).find(([id]) => id.startsWith('JobsSweepRunsFunction'))!;
    expect(sweeper.Properties.Environment.Variables).toMatchObject({ STATE_MACHINE_ARN: { Ref: expect.stringMatching(/^WorkflowStateMachine/) } });
    const rule = Object.values(template.findResources('AWS::Events::Rule', { Properties: { ScheduleExpression: 'rate(1 minute)' } })).find((r) =>
      JSON.stringify(r.Properties.Targets).includes(sweeperId),
    );
    expect(rule).toBeDefined();
    const roleRef = sweeper.Properties.Role['Fn::GetAtt'][0];
    const policy = Object.values(template.findResources('AWS::IAM::Policy')).find((p) => JSON.stringify(p.Properties.Roles).includes(roleRef))!;
    const stateActions = policy.Properties.PolicyDocument.Statement.flatMap((st: { Action: string | string[] }) => [st.Action].flat()).filter((a: string) => a.startsWith('states:'));
    expect(stateActions.sort()).toEqual(['states:DescribeExecution', 'states:StartExecution']);
    expect(JSON.stringify(policy)).toContain(':execution:');
  });
});

describe('data lifecycle', () => {
  it('retains the session secret like the table (every outstanding link and the purge depend on it)', () => {
    template.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
  });
});

describe('edge protection', () => {
  it('throttles the stage, and each public widget write (a paid-extraction path) far lower', () => {
    const [stage] = Object.values(template.findResources('AWS::ApiGateway::Stage'));
    const settings = stage!.Properties.MethodSettings as { ResourcePath: string; HttpMethod: string; ThrottlingRateLimit?: number; ThrottlingBurstLimit?: number }[];
    expect(settings).toContainEqual(expect.objectContaining({ ResourcePath: '/*', HttpMethod: '*', ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 }));
    const widgetWrites = routes.filter((r) => !r.auth && r.method !== 'GET');
    expect(widgetWrites.length).toBeGreaterThanOrEqual(3);
    for (const r of widgetWrites) {
      // API Gateway's method-settings path: "/" then the resource path with "/" escaped as "~1".
      expect(settings).toContainEqual(expect.objectContaining({ ResourcePath: `/${r.path.replace(/\//g, '~1')}`, HttpMethod: r.method, ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 }));
    }
  });
});

describe('failures are never silent', () => {
  const functions = template.findResources('AWS::Lambda::Function');
  const byFile = (prefix: string) => Object.keys(functions).filter((id) => id.startsWith(prefix));

  it('gives every asynchronously invoked function (event rules, schedules) a failure destination queue, and no other', () => {
    const configs = Object.values(template.findResources('AWS::Lambda::EventInvokeConfig'));
    const withDestination = configs.filter((c) => c.Properties.DestinationConfig?.OnFailure?.Destination !== undefined);
    const invoked = withDestination.map((c) => c.Properties.FunctionName.Ref as string).sort();
    // Event rule targets and schedules; not the webhook deliverer (SQS, with its own dead-letter queue) nor anything API Gateway or Step Functions call.
    const expected = [...byFile('Events').filter((id) => !id.startsWith('EventsDeliverWebhookFunction')), ...byFile('WorkflowExecutionEndedFunction'), ...byFile('Jobs'), ...byFile('ScreeningRefreshScreeningListsFunction')].sort();
    expect(invoked).toEqual(expected);
    expect(invoked.length).toBeGreaterThanOrEqual(7);
    for (const c of withDestination) expect(JSON.stringify(c.Properties.DestinationConfig.OnFailure.Destination)).toContain('OperationsAsyncFailures');
  });

  it('alarms to one encrypted SNS topic on dead letters, failed and timed-out runs, API 5XX and p99, table throttles, and errors and throttles of every function', () => {
    const topic = Object.keys(template.findResources('AWS::SNS::Topic', { Properties: { KmsMasterKeyId: Match.anyValue() } }));
    expect(topic).toHaveLength(1);
    const alarms = Object.entries(template.findResources('AWS::CloudWatch::Alarm'));
    for (const [, a] of alarms) expect(a.Properties.AlarmActions).toEqual([{ Ref: topic[0] }]);
    const names = alarms.map(([id]) => id.replace(/^Operations/, '').replace(/[0-9A-F]{8}$/, ''));
    for (const expected of ['WebhookDeadLettersDepth', 'AsyncFailuresDepth', 'ExecutionsFailed', 'ExecutionsTimedOut', 'Api5xx', 'ApiLatencyP99', 'TableThrottles', 'WorkflowErrors', 'EventsErrors', 'JobsThrottles']) expect(names).toContain(expected);
    // Every function's Errors and Throttles metric is in some alarm.
    const alarmed = JSON.stringify(alarms.map(([, a]) => a.Properties.Metrics ?? []));
    for (const id of Object.keys(functions).filter((id) => !id.startsWith('CustomResource') && !id.startsWith('LogRetention') && !id.startsWith('AWS'))) expect([id, alarmed.includes(`"Ref":"${id}"`)]).toEqual([id, true]);
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  it('traces every function of the service (X-Ray active)', () => {
    const service = Object.entries(functions).filter(([id]) => !id.startsWith('CustomResource') && !id.startsWith('AWS') && !id.startsWith('LogRetention'));
    expect(service.length).toBeGreaterThan(40);
    for (const [id, fn] of service) expect([id, fn.Properties.TracingConfig]).toEqual([id, { Mode: 'Active' }]);
    // Tracing adds X-Ray's trace-writing actions, which take no resource; besides them a function is granted
    // nothing on every resource but the extraction functions' Textract and Rekognition calls (which take none either).
    const roles = new Set(service.map(([, fn]) => fn.Properties.Role['Fn::GetAtt'][0] as string));
    const everywhere = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => roles.has(r.Ref)))
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
      .filter((st: { Resource: unknown }) => st.Resource === '*');
    expect(everywhere.length).toBeGreaterThan(40);
    const resourceless = [...TRACE_ACTIONS, 'textract:AnalyzeID', 'textract:AnalyzeDocument', 'rekognition:CompareFaces'];
    for (const st of everywhere) expect([st.Action].flat().filter((a: string) => !resourceless.includes(a))).toEqual([]);
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('reports no unacknowledged finding', () => {
    const report = new AwsSolutionsChecks(app).validateScope(stack);
    const failures = report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} ${r.resourceLogicalId}`));
    expect(failures).toEqual([]);
  });
});

describe('offline extraction in the deployed stack', () => {
  const offlineApp = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const offline = Template.fromStack(new IdvStack(offlineApp, 'OfflineStack', { env: { account: '123456789012', region: 'eu-west-1' }, extractor: 'offline' }));
  const extracting = () => Object.values(offline.findResources('AWS::Lambda::Function', { Properties: { Environment: { Variables: { EXTRACTORS: Match.anyValue() } } } }));

  it('packages the engines only in the two extraction functions: x86_64, 3008 MB, no Textract permission', () => {
    const fns = extracting();
    expect(fns).toHaveLength(2);
    for (const fn of fns) {
      expect(fn.Properties).toMatchObject({ Architectures: ['x86_64'], MemorySize: 3008, Timeout: 300 });
      expect(fn.Properties.Environment.Variables).toMatchObject({ EXTRACTOR: 'offline', EXTRACTORS: 'offline' });
    }
    const others = Object.values(offline.findResources('AWS::Lambda::Function', { Properties: { Runtime: 'nodejs22.x' } })).filter((f) => !f.Properties.Environment.Variables.EXTRACTORS);
    expect(others.filter((f) => f.Properties.Architectures[0] !== 'arm64')).toHaveLength(1); // the PDF report (the console's pdf.js files are copied, arm64)
    const statements = Object.values(offline.findResources('AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements.some((s: any) => JSON.stringify(s.Action).includes('textract'))).toBe(false);
  });

  it('keeps Textract and Rekognition in the default stack, where the extraction functions carry only aws', () => {
    const fns = Object.values(template.findResources('AWS::Lambda::Function', { Properties: { Environment: { Variables: { EXTRACTORS: 'aws' } } } }));
    expect(fns).toHaveLength(2);
    // With minimized policies the resourceless X-Ray actions may share the statement; nothing else may.
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement).filter((st: { Action: string | string[] }) => [st.Action].flat().includes('textract:AnalyzeID'));
    expect(statements).toHaveLength(2);
    for (const st of statements) {
      expect([st.Action].flat()).toEqual(expect.arrayContaining(['textract:AnalyzeID', 'textract:AnalyzeDocument', 'rekognition:CompareFaces']));
      expect([st.Action].flat().filter((a: string) => !a.startsWith('xray:') && !['textract:AnalyzeID', 'textract:AnalyzeDocument', 'rekognition:CompareFaces'].includes(a))).toEqual([]);
    }
  });

  it('states the extractor in the stack outputs', () => {
    offline.hasOutput('Extractor', { Value: 'offline', Description: Match.stringLikeRegexp('no document leaves the account') });
  });
});
