import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { IdvStack } from '../../lib/stack';
import { handlerFiles, routes } from '../../src/http/routes';
import { RUN_TIMEOUT_SECONDS, WORKFLOW_TASKS } from '../../statemachines/tasks';
import { SWEEP_POLICY } from '../../functions/jobs/sweep-runs';
import { EVENT_RULES, EVENT_SOURCE } from '../../src/events/events';

// Asset bundling is skipped in unit tests (no esbuild run); `cdk synth` bundles for real.
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new IdvStack(app, 'TestStack', { env: { account: '123456789012', region: 'eu-west-1' } });
const template = Template.fromStack(stack);

describe('data store', () => {
  it('has one on-demand table with PITR, deletion protection, TTL, the two list indexes and the expiry index', () => {
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
    // + the webhook delivery, 4 scheduled jobs and the execution-ended function.
    expect(Object.keys(fns)).toHaveLength(handlerFiles().length + 1 + WORKFLOW_TASKS.length + EVENT_RULES.length + 1 + 4 + 1);
    for (const [logicalId, fn] of Object.entries(fns)) {
      // The PDF report packages sharp and pdf.js binaries built on the x86_64 build machine.
      expect(fn.Properties.Architectures).toEqual([logicalId.includes('DownloadDocumentPdf') ? 'x86_64' : 'arm64']);
      const env = fn.Properties.Environment.Variables;
      expect(env).toMatchObject({ EXTRACTOR: 'aws', POWERTOOLS_SERVICE_NAME: 'idv' });
      expect(Object.keys(env)).toEqual(expect.arrayContaining(['TABLE_NAME', 'BUCKET_NAME', 'SESSION_SECRET_ARN', 'WORKFLOW']));
      expect(['stepfunctions', 'none']).toContain(env.WORKFLOW);
      if (env.WORKFLOW === 'stepfunctions') expect(env.STATE_MACHINE_ARN).toBeDefined();
    }
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

describe('events and webhooks', () => {
  it('has a custom bus whose rule pattern is the shared one, targeting the dispatch function with retries and a DLQ', () => {
    template.resourceCountIs('AWS::Events::EventBus', 1);
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: [EVENT_SOURCE], 'detail-type': ['DocumentUploaded'] },
    });
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: [EVENT_SOURCE], 'detail-type': ['DocumentUploaded', 'VerificationFinished', 'VerificationCanceled'] },
      Targets: [Match.objectLike({ RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86400 }, DeadLetterConfig: Match.anyValue() })],
    });
  });

  it('has an encrypted, TLS-only delivery queue with a dead-letter queue consumed with batch item failures', () => {
    template.resourceCountIs('AWS::SQS::Queue', 2);
    template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true, RedrivePolicy: Match.objectLike({ maxReceiveCount: 5 }) });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionResponseTypes: ['ReportBatchItemFailures'] });
  });

  it('gives every publishing function the bus name and PutEvents on that bus only', () => {
    const fns = Object.values(template.findResources('AWS::Lambda::Function', { Properties: { Runtime: 'nodejs22.x' } }));
    for (const fn of fns) expect(fn.Properties.Environment.Variables.EVENT_BUS_NAME).toBeDefined();
    const putEvents = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p).includes('events:PutEvents'));
    expect(putEvents.length).toBe(handlerFiles().length + 1 + WORKFLOW_TASKS.length + 1);
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
    expect(sweeper.Properties.Environment.Variables).toMatchObject({ WORKFLOW: 'stepfunctions', STATE_MACHINE_ARN: { Ref: expect.stringMatching(/^WorkflowStateMachine/) } });
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
    expect(others.filter((f) => f.Properties.Architectures[0] !== 'arm64')).toHaveLength(1); // the PDF report
    const statements = Object.values(offline.findResources('AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements.some((s: any) => JSON.stringify(s.Action).includes('textract'))).toBe(false);
  });

  it('keeps Textract and Rekognition in the default stack, where the extraction functions carry only aws', () => {
    const fns = Object.values(template.findResources('AWS::Lambda::Function', { Properties: { Environment: { Variables: { EXTRACTORS: 'aws' } } } }));
    expect(fns).toHaveLength(2);
    template.hasResourceProperties('AWS::IAM::Policy', { PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: ['textract:AnalyzeID', 'textract:AnalyzeDocument', 'rekognition:CompareFaces'] })]) } });
  });

  it('states the extractor in the stack outputs', () => {
    offline.hasOutput('Extractor', { Value: 'offline', Description: Match.stringLikeRegexp('no document leaves the account') });
  });
});
