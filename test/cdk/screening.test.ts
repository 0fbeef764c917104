import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { IdentityVerificationService } from '../../lib/identity-verification-service';
import { IdvStack } from '../../lib/stack';
import { functionBundling } from '../../lib/bundling';

const context = { ...JSON.parse(readFileSync(join(__dirname, '..', '..', 'cdk.json'), 'utf8')).context, 'aws:cdk:bundling-stacks': [] };
const env = { account: '123456789012', region: 'eu-west-1' };
const template = Template.fromStack(new IdvStack(new App({ context }), 'ScreeningStack', { env }));
const fns = template.findResources('AWS::Lambda::Function');
const fn = (prefix: string) => Object.entries(fns).find(([id]) => id.startsWith(prefix))!;
const statementsOf = (prefix: string): { Action: string | string[]; Resource: unknown; Condition?: unknown }[] => {
  const role = fn(prefix)[1].Properties.Role['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(role))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
};
const actionsOf = (prefix: string) => [...new Set(statementsOf(prefix).flatMap((s) => [s.Action].flat()))].sort();
const bucketId = Object.keys(template.findResources('AWS::S3::Bucket')).find((id) => id.startsWith('ScreeningSnapshots'))!;

describe('sanctions lists, deployed (a flow screens: kyc-screened)', () => {
  it('keeps every snapshot in a versioned, private, TLS-only bucket', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    expect(bucketId).toBeDefined();
  });

  it('refreshes the lists every 6 hours from the configured sources, told the bucket and the sources', () => {
    const [refreshId, refresh] = fn('ScreeningRefreshScreeningListsFunction');
    const rules = Object.values(template.findResources('AWS::Events::Rule', { Properties: { ScheduleExpression: 'rate(6 hours)' } }));
    expect(rules.filter((r) => JSON.stringify(r.Properties.Targets).includes(refreshId))).toHaveLength(1);
    const vars = refresh.Properties.Environment.Variables;
    expect(vars.SCREENING_BUCKET).toEqual({ Ref: bucketId });
    const sources = JSON.parse(vars.SCREENING_SOURCES);
    expect(Object.keys(sources.lists).sort()).toEqual(['ofac-sdn', 'un-sc']);
    expect(sources.lists['un-sc'].files.xml).toMatch(/^https:\/\//);
  });

  it('lets the refresh read and write snapshot objects under lists/ and nothing else of S3; the pipeline only reads them', () => {
    expect(actionsOf('ScreeningRefreshScreeningListsFunction').filter((a) => a.startsWith('s3:'))).toEqual(['s3:GetObject', 's3:ListBucket', 's3:PutObject']);
    const put = statementsOf('ScreeningRefreshScreeningListsFunction').find((s) => [s.Action].flat().includes('s3:PutObject'))!;
    expect(JSON.stringify(put.Resource)).toContain('/lists/*');
    const evaluate = 'WorkflowEvaluateDocumentFunction';
    expect(actionsOf(evaluate).filter((a) => a.startsWith('s3:'))).toEqual(['s3:GetObject', 's3:ListBucket']);
    const list = statementsOf(evaluate).find((s) => [s.Action].flat().includes('s3:ListBucket'))!;
    expect(list.Condition).toEqual({ StringLike: { 's3:prefix': ['lists/*'] } });
    expect(fn(evaluate)[1].Properties.Environment.Variables.SCREENING_BUCKET).toEqual({ Ref: bucketId });
    // The refresh publishes ScreeningHit (PutEvents on the bus) and writes the table (alerts, outbox).
    expect(actionsOf('ScreeningRefreshScreeningListsFunction')).toEqual(expect.arrayContaining(['events:PutEvents', 'dynamodb:PutItem']));
  });

  it('bundles the S3 client with the functions that read the snapshots, and leaves it out of the others', () => {
    expect(functionBundling('workflow/evaluate-document').define['process.env.IDV_BUNDLE_S3']).toBeUndefined();
    expect(functionBundling('jobs/refresh-screening-lists').define['process.env.IDV_BUNDLE_S3']).toBeUndefined();
    expect(functionBundling('workflow/finish-run').define['process.env.IDV_BUNDLE_S3']).toBe('"absent"');
  });

  it('alarms when the newest snapshot is older than the flows\' max_age_days, or the refresh stopped recording', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ScreeningSnapshotAge',
      Threshold: 7,
      Period: 86400,
      Statistic: 'Maximum',
      TreatMissingData: 'breaching',
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('gives the refresh a failure destination like the other scheduled jobs', () => {
    const [, refresh] = fn('ScreeningRefreshScreeningListsFunction');
    const configs = Object.values(template.findResources('AWS::Lambda::EventInvokeConfig'));
    expect(configs.some((c) => JSON.stringify(c.Properties.FunctionName) === JSON.stringify({ Ref: Object.entries(fns).find(([, f]) => f === refresh)![0] }))).toBe(true);
  });
});

describe('sanctions lists when no flow screens', () => {
  it('creates no bucket, job or alarm, and leaves the pipeline without S3 grants on them', () => {
    const flows = JSON.parse(readFileSync(join(__dirname, '..', '..', 'config', 'flows.json'), 'utf8'));
    flows.flows = flows.flows.filter((f: { checks?: { screening?: unknown } }) => !f.checks?.screening);
    const stack = new Stack(new App({ context }), 'NoScreening', { env });
    new IdentityVerificationService(stack, 'Service', { flows });
    const t = Template.fromStack(stack);
    expect(Object.keys(t.findResources('AWS::S3::Bucket')).filter((id) => id.includes('Screening'))).toEqual([]);
    expect(Object.keys(t.findResources('AWS::Lambda::Function')).filter((id) => id.includes('RefreshScreeningLists'))).toEqual([]);
    expect(Object.values(t.findResources('AWS::CloudWatch::Alarm')).filter((a) => a.Properties.MetricName === 'ScreeningSnapshotAge')).toEqual([]);
  });

  it('refuses a flow that screens against a list with no configured source', () => {
    const flows = JSON.parse(readFileSync(join(__dirname, '..', '..', 'config', 'flows.json'), 'utf8'));
    const stack = new Stack(new App({ context }), 'Unknown', { env });
    expect(() => new IdentityVerificationService(stack, 'Service', { flows, screeningSources: { lists: { 'un-sc': { files: { xml: 'https://example.com/un.xml' } } } } })).toThrow(/ofac-sdn/);
  });
});
