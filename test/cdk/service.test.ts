import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { EndpointType } from 'aws-cdk-lib/aws-apigateway';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { AwsSolutionsChecks } from 'cdk-nag';
import { IdentityVerificationService } from '../../lib/identity-verification-service';
import { IdvStack } from '../../lib/stack';
import { stageProps } from '../../lib/stage-config';
import { METRIC, METRICS_NAMESPACE } from '../../src/ports/metrics';

const ENV = { account: '123456789012', region: 'eu-west-1' };
// The feature flags of cdk.json, as `cdk synth` sees them; asset bundling skipped (no esbuild run), as in stack.test.ts.
const CDK_CONTEXT = JSON.parse(readFileSync(join(__dirname, '..', '..', 'cdk.json'), 'utf8')).context;
const newApp = () => new App({ context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [] } });

const defaults = Template.fromStack(new IdvStack(newApp(), 'IdvStack', { env: ENV }));

const TOPIC_ARN = 'arn:aws:sns:eu-west-1:123456789012:platform-alarms';
const ACL_ARN = 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/platform/0000';
const FLOWS = JSON.parse(readFileSync(join(__dirname, '..', '..', 'config', 'flows.json'), 'utf8'));
/** A platform team's own stack holding the construct with every prop set. */
function adopted(props: Partial<ConstructorParameters<typeof IdentityVerificationService>[2]> = {}) {
  const app = newApp();
  const stack = new Stack(app, 'Platform', { env: ENV });
  const service = new IdentityVerificationService(stack, 'Idv', {
    flows: { ...FLOWS, flows: FLOWS.flows.filter((f: { path: string }) => f.path === 'photo-id') },
    stage: 'staging',
    deletedRetentionDays: 7,
    logRetention: RetentionDays.ONE_MONTH,
    alarmTopic: Topic.fromTopicArn(stack, 'Alarms', TOPIC_ARN),
    domain: { domainName: 'idv.example.com', certificate: Certificate.fromCertificateArn(stack, 'Cert', 'arn:aws:acm:eu-west-1:123456789012:certificate/abc') },
    endpointType: EndpointType.REGIONAL,
    waf: { webAclArn: ACL_ARN },
    tags: { CostCenter: 'kyc-42' },
    extractionConcurrency: 2,
    backup: { images: true, deleteAfter: Duration.days(14) },
    serviceName: 'idv-staging',
    alarmBounds: { submitted: Duration.minutes(45) },
    ...props,
  });
  return { app, stack, service, template: Template.fromStack(stack) };
}
const custom = adopted();

const functionsOf = (t: Template) => Object.entries(t.findResources('AWS::Lambda::Function', { Properties: { Runtime: 'nodejs22.x' } }));
/** A resource's tags: a list of Key/Value in most types, a map in a few (a backup plan's BackupPlanTags). */
const tagsOf = (resource: { [key: string]: any }): Record<string, string> =>
  resource.Properties?.BackupPlanTags ?? Object.fromEntries(((resource.Properties?.Tags ?? []) as { Key: string; Value: string }[]).map((t) => [t.Key, t.Value]));

describe('IdentityVerificationService defaults (the project stack)', () => {
  it('keeps the logical ids the stateful resources had before the construct existed (a new id would replace them)', () => {
    const ids = Object.keys(defaults.toJSON().Resources);
    for (const prefix of ['DataTable', 'DataImages', 'DataImageKey', 'DataAccessLogs', 'SessionSecret', 'WorkflowStateMachine', 'EventsBus', 'Api']) {
      expect([prefix, ids.some((id) => new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id))]).toEqual([prefix, true]);
    }
  });

  it('encrypts the table with a customer key of its own, rotated and retained', () => {
    const [keyId] = Object.keys(defaults.findResources('AWS::KMS::Key')).filter((id) => id.startsWith('DataTableKey'));
    expect(keyId).toBeDefined();
    defaults.hasResourceProperties('AWS::DynamoDB::Table', { SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } } });
    defaults.hasResource('AWS::KMS::Key', { Properties: Match.objectLike({ EnableKeyRotation: true, Description: Match.stringLikeRegexp('table') }), DeletionPolicy: 'Retain' });
  });

  it('keeps images unversioned, with no age-based expiry, and clears incomplete uploads after a day', () => {
    const [bucket] = Object.values(defaults.findResources('AWS::S3::Bucket', { Properties: { LoggingConfiguration: Match.anyValue() } }));
    expect(bucket!.Properties.VersioningConfiguration).toBeUndefined();
    expect(bucket!.Properties.LifecycleConfiguration.Rules).toEqual([{ Id: 'AbortIncompleteUploads', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }]);
  });

  it('deletes a flow from the table when it leaves the configuration (each flow resource deletes its own item)', () => {
    const seeds = Object.values(defaults.findResources('Custom::AWS'));
    expect(seeds.length).toBeGreaterThanOrEqual(2);
    for (const seed of seeds) {
      const created = JSON.stringify(seed.Properties.Create);
      const path = /FLOW#([\w-]+)/.exec(created)?.[1];
      const deleted = JSON.stringify(seed.Properties.Delete);
      expect(deleted).toContain('deleteItem');
      expect(deleted).toContain(`FLOW#${path}`);
    }
  });

  it('names the stage prod, tags every taggable resource with Service and Stage, and reserves 5 executions for each extraction function', () => {
    defaults.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'prod' });
    for (const type of ['AWS::DynamoDB::Table', 'AWS::S3::Bucket', 'AWS::Lambda::Function', 'AWS::SQS::Queue', 'AWS::StepFunctions::StateMachine', 'AWS::KMS::Key', 'AWS::SecretsManager::Secret']) {
      for (const [id, r] of Object.entries(defaults.findResources(type))) {
        if (id.startsWith('AWS679f53fac')) continue; // the custom-resource provider CDK places at the stack root
        expect([id, tagsOf(r)]).toEqual([id, expect.objectContaining({ Service: 'idv', Stage: 'prod' })]);
      }
    }
    const reserved = functionsOf(defaults).filter(([, f]) => f.Properties.ReservedConcurrentExecutions !== undefined);
    expect(reserved.map(([id, f]) => [id.replace(/[0-9A-F]{8}$/, ''), f.Properties.ReservedConcurrentExecutions]).sort()).toEqual([
      ['EventsPreExtractFunction', 5],
      ['WorkflowExtractDocumentFunction', 5],
    ]);
  });

  it('alarms on the outbox age (5 min) and on verifications Submitted 30 min, from the business metrics the jobs record', () => {
    const alarm = (name: string) => Object.entries(defaults.findResources('AWS::CloudWatch::Alarm')).find(([id]) => id.startsWith(`Operations${name}`))![1].Properties;
    // Ten minutes without a figure (the job stopped) alarms too.
    expect(alarm('OutboxAge')).toMatchObject({ Namespace: METRICS_NAMESPACE, MetricName: METRIC.outboxOldestAge, Statistic: 'Maximum', Threshold: 300, Dimensions: [{ Name: 'service', Value: 'idv' }], EvaluationPeriods: 2, TreatMissingData: 'breaching' });
    expect(alarm('SubmittedTooLong')).toMatchObject({ Namespace: METRICS_NAMESPACE, MetricName: METRIC.submittedOldestAge, Statistic: 'Maximum', Threshold: 1800, EvaluationPeriods: 2, TreatMissingData: 'breaching' });
  });

  it('has no WAF association, custom domain or backup plan unless asked', () => {
    for (const type of ['AWS::WAFv2::WebACLAssociation', 'AWS::WAFv2::WebACL', 'AWS::ApiGateway::DomainName', 'AWS::Backup::BackupPlan']) defaults.resourceCountIs(type, 0);
    defaults.hasOutput('ApiUrl', { Value: Match.objectLike({ 'Fn::Join': Match.anyValue() }) });
  });
});

describe('IdentityVerificationService props take effect (adopted in a stack of its own)', () => {
  const t = custom.template;

  it('names the stage after the environment and maps a REGIONAL custom domain at its root (no stage segment in URLs)', () => {
    t.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'staging' });
    t.hasResourceProperties('AWS::ApiGateway::RestApi', { EndpointConfiguration: { Types: ['REGIONAL'] } });
    t.hasResourceProperties('AWS::ApiGateway::DomainName', { DomainName: 'idv.example.com', RegionalCertificateArn: Match.stringLikeRegexp('certificate/abc'), EndpointConfiguration: { Types: ['REGIONAL'] }, SecurityPolicy: 'TLS_1_2' });
    const [mapping] = Object.values(t.findResources('AWS::ApiGateway::BasePathMapping'));
    expect(mapping!.Properties.BasePath).toBeUndefined();
    expect(custom.service.apiUrl).toBe('https://idv.example.com/');
    expect(custom.service.domainTarget).toBeDefined();
  });

  it('sends every alarm to the topic it was given and creates none', () => {
    t.resourceCountIs('AWS::SNS::Topic', 0);
    const alarms = Object.values(t.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThan(10);
    for (const a of alarms) expect(a.Properties.AlarmActions).toEqual([TOPIC_ARN]);
  });

  it('associates the given web ACL with the stage', () => {
    t.hasResourceProperties('AWS::WAFv2::WebACLAssociation', { WebACLArn: ACL_ARN, ResourceArn: Match.objectLike({ 'Fn::Join': Match.anyValue() }) });
    t.resourceCountIs('AWS::WAFv2::WebACL', 0);
  });

  it('keeps every log group for the retention given', () => {
    // Not the log group of the custom-resource provider CDK keeps at the stack's root (shared by the stack, not the service's).
    const groups = Object.entries(t.findResources('AWS::Logs::LogGroup')).filter(([id]) => !id.startsWith('AWS679f53fac')).map(([, g]) => g);
    expect(groups.length).toBeGreaterThan(40);
    for (const g of groups) expect(g.Properties.RetentionInDays).toBe(30);
  });

  it('adds the given tags to every resource, with the stage and service name', () => {
    for (const type of ['AWS::DynamoDB::Table', 'AWS::Lambda::Function', 'AWS::CloudWatch::Alarm', 'AWS::CloudWatch::Dashboard', 'AWS::Logs::LogGroup', 'AWS::IAM::Role', 'AWS::Backup::BackupPlan']) {
      for (const [id, r] of Object.entries(t.findResources(type))) {
        if (id.startsWith('AWS679f53fac')) continue; // the custom-resource provider CDK places at the stack root
        expect([id, tagsOf(r)]).toEqual([id, expect.objectContaining({ CostCenter: 'kyc-42', Stage: 'staging', Service: 'idv-staging' })]);
      }
    }
  });

  it('passes the service name to the functions and retention days to the one that uses them, and reserves the concurrency given for extraction', () => {
    const fns = functionsOf(t);
    for (const [id, f] of fns) {
      const env = f.Properties.Environment.Variables;
      expect(env).toMatchObject({ POWERTOOLS_SERVICE_NAME: 'idv-staging' });
      // Told only what it uses: Delete Verification sets the purge time (lib/service-function.ts toldWhatItUses).
      expect([id, env.DELETED_RETENTION_DAYS]).toEqual([id, id.includes('DeleteVerificationFunction') ? '7' : undefined]);
    }
    expect(fns.filter(([, f]) => f.Properties.Environment.Variables.DELETED_RETENTION_DAYS === '7')).toHaveLength(1);
    expect(fns.filter(([, f]) => f.Properties.ReservedConcurrentExecutions === 2)).toHaveLength(2);
    const outbox = Object.entries(t.findResources('AWS::CloudWatch::Alarm')).find(([id]) => id.includes('OutboxAge'))![1];
    expect(outbox.Properties.Dimensions).toEqual([{ Name: 'service', Value: 'idv-staging' }]);
    const submitted = Object.entries(t.findResources('AWS::CloudWatch::Alarm')).find(([id]) => id.includes('SubmittedTooLong'))![1];
    expect([outbox.Properties.Threshold, submitted.Properties.Threshold]).toEqual([300, 2700]);
  });

  it('seeds only the flows given', () => {
    const created = Object.values(t.findResources('Custom::AWS')).map((r) => JSON.stringify(r.Properties.Create));
    expect(created).toHaveLength(1);
    expect(created[0]).toContain('FLOW#photo-id');
  });

  it('backs up the table and the images daily, keeping 14 days; the images bucket is then versioned and a deleted image goes a day later', () => {
    t.hasResourceProperties('AWS::Backup::BackupPlan', { BackupPlan: { BackupPlanRule: [Match.objectLike({ ScheduleExpression: 'cron(0 3 * * ? *)', Lifecycle: { DeleteAfterDays: 14 } })] } });
    const [selection] = Object.values(t.findResources('AWS::Backup::BackupSelection'));
    const resources = JSON.stringify(selection!.Properties.BackupSelection.Resources);
    expect(resources).toContain('DataTable');
    expect(resources).toContain('DataImages');
    const [bucket] = Object.values(t.findResources('AWS::S3::Bucket', { Properties: { LoggingConfiguration: Match.anyValue() } }));
    expect(bucket!.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket!.Properties.LifecycleConfiguration.Rules).toContainEqual(expect.objectContaining({ Id: 'DeletedImages', NoncurrentVersionExpiration: { NoncurrentDays: 1 }, ExpiredObjectDeleteMarker: true }));
  });

  it('creates a web ACL with rate-based rules per IP and, for the widget writes, per IP and per session path', () => {
    const { template } = adopted({ waf: { limits: { widgetWritesPerSession: 15 } } });
    const [acl] = Object.values(template.findResources('AWS::WAFv2::WebACL'));
    expect(acl!.Properties.Scope).toBe('REGIONAL');
    const rules = acl!.Properties.Rules as { Name: string; Statement: { RateBasedStatement: Record<string, unknown> } }[];
    expect(rules.map((r) => [r.Name, r.Statement.RateBasedStatement.Limit, r.Statement.RateBasedStatement.AggregateKeyType])).toEqual([
      ['PerIp', 2000, 'IP'],
      ['WidgetWritesPerIp', 100, 'IP'],
      ['WidgetWritesPerSession', 15, 'CUSTOM_KEYS'],
    ]);
    const session = rules[2]!.Statement.RateBasedStatement;
    expect(session.CustomKeys).toEqual([{ UriPath: { TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }]);
    expect(JSON.stringify(session.ScopeDownStatement)).toContain('"SearchString":"/v/"');
    template.hasResourceProperties('AWS::WAFv2::WebACLAssociation', { WebACLArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('WebAcl'), 'Arn'] } });
  });

  it('meters each API token with a usage plan: keys from the authorizer, required on authenticated routes only', () => {
    const { template, stack } = adopted({ usagePlans: { Standard: { quota: { limit: 10000, period: 'DAY' }, rateLimit: 20, burstLimit: 40 } } });
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Quota: { Limit: 10000, Period: 'DAY' },
      Throttle: { RateLimit: 20, BurstLimit: 40 },
      ApiStages: [Match.objectLike({ Stage: Match.anyValue() })],
    });
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method')).filter((m) => m.Properties.HttpMethod !== 'OPTIONS');
    for (const m of methods) expect([m.Properties.OperationName, m.Properties.ApiKeyRequired === true]).toEqual([m.Properties.OperationName, m.Properties.AuthorizationType === 'CUSTOM']);
    const [authorizer] = functionsOf(template).filter(([id]) => id.includes('AuthorizerFunction'));
    expect(authorizer![1].Properties.Environment.Variables.USAGE_PLAN_KEYS).toBe('true');
    // Without plans: no key source, no key required, and the authorizer names no key.
    expect(JSON.stringify(defaults.findResources('AWS::ApiGateway::Method'))).not.toContain('ApiKeyRequired');
    defaults.resourceCountIs('AWS::ApiGateway::UsagePlan', 0);
    for (const [, f] of functionsOf(defaults)) expect(f.Properties.Environment.Variables.USAGE_PLAN_KEYS).toBeUndefined();
    expect(new AwsSolutionsChecks(stack.node.root as App).validateScope(stack).violations).toEqual([]);
  });

  it('names its dashboard after the stack and its own id', () => {
    t.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'Platform-Idv-operations' });
    defaults.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'IdvStack-operations' });
  });

  it("stays below CloudFormation's 500 resources per stack with every option on, with room for a few more routes", () => {
    const { template } = adopted({ waf: { limits: {} }, extractor: 'offline', faceLiveness: {} });
    // 443 with sanctions screening (its bucket, refresh job, schedule and alarms), 446 with Face
    // Liveness (the widget's identity pool, its role and their attachment); the bound keeps about
    // 30 resources of room under CloudFormation's hard 500, so that a stack nearing it fails here first.
    expect(Object.keys(template.toJSON().Resources).length).toBeLessThan(470);
  });

  it('passes cdk-nag AwsSolutions with every prop set', () => {
    const report = new AwsSolutionsChecks(custom.app).validateScope(custom.stack);
    expect(report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} ${r.resourceLogicalId}`))).toEqual([]);
  });
});

describe('Amazon Rekognition Face Liveness (the faceLiveness prop, or a flow that names rekognition)', () => {
  const FACE_LIVENESS_ACTIONS = ['rekognition:CreateFaceLivenessSession', 'rekognition:GetFaceLivenessSessionResults'];
  /** Each function's id, environment and the actions its role's policies grant. */
  const grantsOf = (t: Template) => {
    const policies = Object.values(t.findResources('AWS::IAM::Policy'));
    return functionsOf(t).map(([id, f]) => {
      const role = f.Properties.Role['Fn::GetAtt'][0] as string;
      const statements = policies.filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role)).flatMap((p) => p.Properties.PolicyDocument.Statement);
      return { id, env: f.Properties.Environment.Variables as Record<string, unknown>, statements: statements as { Action: string | string[]; Resource: unknown }[] };
    });
  };
  /** `IdvApiWidgetPageFunction0A1B2C3D` → `ApiWidgetPageFunction`. */
  const shortId = (id: string) => id.replace(/^Idv/, '').replace(/[0-9A-F]{8}$/, '');
  const withFaceLiveness = (t: Template) => grantsOf(t).filter((f) => f.statements.some((st) => [st.Action].flat().some((a) => FACE_LIVENESS_ACTIONS.includes(a))));
  const enabled = adopted({ faceLiveness: { region: 'us-east-1', minConfidence: 85 } });

  it('lets only the two widget liveness functions create sessions and read their results, and tells them the region, the confidence and the image key', () => {
    const granted = withFaceLiveness(enabled.template);
    expect(granted.map((f) => shortId(f.id)).sort()).toEqual(['ApiWidgetLivenessChallengeFunction', 'ApiWidgetLivenessSessionFunction']);
    for (const f of granted) {
      // On every resource (Face Liveness has none to name), beside tracing's X-Ray actions.
      expect(f.statements.filter((st) => st.Resource === '*').flatMap((st) => [st.Action].flat())).toEqual(expect.arrayContaining(FACE_LIVENESS_ACTIONS));
      expect(f.env).toMatchObject({ REKOGNITION_LIVENESS_REGION: 'us-east-1', IMAGE_KEY_ID: expect.anything() });
    }
    // The confidence goes to the functions that judge with it: the session's completion and EvaluateDocument.
    const told = grantsOf(enabled.template).filter((f) => f.env.REKOGNITION_LIVENESS_MIN_CONFIDENCE === '85').map((f) => f.id);
    expect(told.some((id) => id.includes('WidgetLivenessSessionFunction')) && told.some((id) => id.includes('EvaluateDocumentFunction'))).toBe(true);
    // The region also goes to the widget's page, whose policy names the region's streaming host: told, never granted.
    const region = grantsOf(enabled.template).filter((f) => f.env.REKOGNITION_LIVENESS_REGION !== undefined);
    expect(region.map((f) => shortId(f.id)).sort()).toEqual(['ApiWidgetLivenessChallengeFunction', 'ApiWidgetLivenessSessionFunction', 'ApiWidgetPageFunction']);
  });

  it("tells the widget's page where the capture connects (region, identity pool) without granting it anything more than it has without Face Liveness", () => {
    const page = (t: Template) => grantsOf(t).find((f) => shortId(f.id) === 'ApiWidgetPageFunction');
    const on = page(enabled.template);
    const off = page(custom.template);
    expect(on?.env).toMatchObject({ REKOGNITION_LIVENESS_REGION: 'us-east-1', REKOGNITION_LIVENESS_IDENTITY_POOL_ID: expect.anything() });
    expect(on?.env).not.toHaveProperty('IMAGE_KEY_ID');
    expect(on?.env).not.toHaveProperty('REKOGNITION_LIVENESS_MIN_CONFIDENCE');
    const actions = (f: typeof on) => [...new Set((f?.statements ?? []).flatMap((st) => [st.Action].flat()))].sort();
    // Its own (the table's reads, the session secret and its key, tracing), and nothing of Rekognition's, Cognito's or the images'.
    expect(actions(on).filter((a) => /^(rekognition|cognito-identity|s3):/.test(a))).toEqual([]);
    expect(actions(on)).toEqual(actions(off));
  });

  it('grants nothing and tells nothing without the prop and without a rekognition flow', () => {
    expect(withFaceLiveness(custom.template)).toEqual([]);
    expect(grantsOf(custom.template).filter((f) => Object.keys(f.env).some((k) => k.startsWith('REKOGNITION_LIVENESS_') || k === 'IMAGE_KEY_ID'))).toEqual([]);
  });

  it("is enabled in the stack's own region when a flow names rekognition", () => {
    const base = FLOWS.flows.find((f: { path: string }) => f.path === 'id-and-live-selfie');
    const { template } = adopted({ flows: { ...FLOWS, flows: [{ ...base, path: 'rekognition-selfie', checks: { ...base.checks, liveness_provider: 'rekognition' } }] } });
    const granted = withFaceLiveness(template);
    expect(granted).toHaveLength(2);
    for (const f of granted) expect(f.env).toMatchObject({ REKOGNITION_LIVENESS_REGION: ENV.region });
    expect(granted.find((f) => f.id.includes('WidgetLivenessSessionFunction'))?.env).toMatchObject({ REKOGNITION_LIVENESS_MIN_CONFIDENCE: '90' });
  });

  it('passes cdk-nag AwsSolutions with the grant (Face Liveness has no resource-level permissions: acknowledged with its reason)', () => {
    const report = new AwsSolutionsChecks(enabled.app).validateScope(enabled.stack);
    expect(report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} ${r.resourceLogicalId}`))).toEqual([]);
  });

  it("gives the widget's capture (AWS's component) credentials from a Cognito identity pool whose unauthenticated role may only start a session's stream", () => {
    const t = enabled.template;
    t.resourceCountIs('AWS::Cognito::IdentityPool', 1);
    t.hasResourceProperties('AWS::Cognito::IdentityPool', { AllowUnauthenticatedIdentities: true, AllowClassicFlow: false });
    const [poolId] = Object.keys(t.findResources('AWS::Cognito::IdentityPool'));
    const roles = Object.entries(t.findResources('AWS::IAM::Role')).filter(([, r]) => JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('cognito-identity.amazonaws.com'));
    expect(roles).toHaveLength(1);
    const [roleId, role] = roles[0]!;
    // Assumed only through this pool, only by its unauthenticated identities.
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Action: 'sts:AssumeRoleWithWebIdentity',
        Effect: 'Allow',
        Principal: { Federated: 'cognito-identity.amazonaws.com' },
        Condition: { StringEquals: { 'cognito-identity.amazonaws.com:aud': { Ref: poolId } }, 'ForAnyValue:StringLike': { 'cognito-identity.amazonaws.com:amr': 'unauthenticated' } },
      },
    ]);
    // One action, nothing else: no managed policy, no other policy attached to the role.
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(role.Properties.Policies.flatMap((p: { PolicyDocument: { Statement: unknown[] } }) => p.PolicyDocument.Statement)).toEqual([
      { Action: 'rekognition:StartFaceLivenessSession', Effect: 'Allow', Resource: '*' },
    ]);
    expect(Object.values(t.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p.Properties.Roles).includes(roleId))).toEqual([]);
    t.hasResourceProperties('AWS::Cognito::IdentityPoolRoleAttachment', { IdentityPoolId: { Ref: poolId }, Roles: { unauthenticated: { 'Fn::GetAtt': [roleId, 'Arn'] } } });
    // The challenge function hands the pool to the widget (its answer), the page names Cognito's host from it (its policy);
    // no function may call the stream itself.
    const told = grantsOf(t).filter((f) => f.env.REKOGNITION_LIVENESS_IDENTITY_POOL_ID !== undefined);
    expect(told.map((f) => shortId(f.id)).sort()).toEqual(['ApiWidgetLivenessChallengeFunction', 'ApiWidgetPageFunction']);
    for (const f of told) expect(f.env.REKOGNITION_LIVENESS_IDENTITY_POOL_ID).toEqual({ Ref: poolId });
    expect(grantsOf(t).flatMap((f) => f.statements.flatMap((st) => [st.Action].flat())).filter((a) => a === 'rekognition:StartFaceLivenessSession')).toEqual([]);
  });

  it('adds the pool, its role and their attachment (three resources) only when Face Liveness is on', () => {
    for (const type of ['AWS::Cognito::IdentityPool', 'AWS::Cognito::IdentityPoolRoleAttachment']) custom.template.resourceCountIs(type, 0);
    expect(Object.keys(enabled.template.toJSON().Resources).length - Object.keys(custom.template.toJSON().Resources).length).toBe(3);
    expect(grantsOf(custom.template).filter((f) => f.env.REKOGNITION_LIVENESS_IDENTITY_POOL_ID !== undefined)).toEqual([]);
  });
});

describe('stage configuration (cdk.json context.stages)', () => {
  const cdkJson = JSON.parse(readFileSync(join(__dirname, '..', '..', 'cdk.json'), 'utf8')).context;
  const context = (extra: Record<string, unknown>) => (key: string) => ({ ...cdkJson, ...extra })[key];

  it('deploys prod as IdvStack (its id of old) and another stage as IdvStack-<stage> with its settings', () => {
    expect(stageProps(context({}))).toEqual({ stackId: 'IdvStack', props: { stage: 'prod' } });
    const staging = stageProps(context({ stage: 'staging' }));
    expect(staging.stackId).toBe('IdvStack-staging');
    expect(staging.props).toMatchObject({ stage: 'staging', deletedRetentionDays: 7, logRetention: 30, extractionConcurrency: 2 });
  });

  it('lets -c extractor and -c publicBaseUrl override the stage', () => {
    expect(stageProps(context({ extractor: 'offline', publicBaseUrl: 'https://idv.example.com' })).props).toMatchObject({ extractor: 'offline', publicBaseUrl: 'https://idv.example.com' });
  });

  it('fails the synth on an unknown stage or an invalid setting, naming it', () => {
    expect(() => stageProps(context({ stage: 'qa' }))).toThrow("no stage 'qa'");
    expect(() => stageProps(context({ stages: { prod: { logRetentionDays: 42 } } }))).toThrow('stages.prod: logRetentionDays');
    expect(() => stageProps(context({ stages: { prod: { extractionConcurency: 2 } } }))).toThrow('stages.prod');
    expect(() => stageProps(context({ extractor: 'textract' }))).toThrow('-c extractor');
  });

  it('builds the custom domain and the alarm topic of a stage from their ARNs', () => {
    const app = newApp();
    const stack = new IdvStack(app, 'IdvStack-x', { env: ENV, domainName: 'idv.example.com', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/edge', alarmTopicArn: TOPIC_ARN });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::ApiGateway::DomainName', { DomainName: 'idv.example.com', CertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/edge' });
    t.hasOutput('ApiUrl', { Value: 'https://idv.example.com/' });
    t.resourceCountIs('AWS::SNS::Topic', 0);
  });
});
