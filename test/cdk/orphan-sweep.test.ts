import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { IdvStack } from '../../lib/stack';

const app = new App({ context: { ...JSON.parse(readFileSync(join(__dirname, '..', '..', 'cdk.json'), 'utf8')).context, 'aws:cdk:bundling-stacks': [] } });
const template = Template.fromStack(new IdvStack(app, 'SweepStack', { env: { account: '123456789012', region: 'eu-west-1' } }));
const fns = template.findResources('AWS::Lambda::Function');
const [sweepId, sweep] = Object.entries(fns).find(([id]) => id.startsWith('JobsSweepOrphansFunction'))!;
const statements = (): { Action: string | string[]; Resource: unknown; Condition?: unknown }[] => {
  const role = sweep.Properties.Role['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(role))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
};
const actions = () => statements().flatMap((s) => [s.Action].flat()).sort();

describe('orphan-image sweep job', () => {
  it('runs daily, told the table and the bucket', () => {
    const rules = Object.values(template.findResources('AWS::Events::Rule', { Properties: { ScheduleExpression: 'rate(1 day)' } }));
    expect(rules.filter((r) => JSON.stringify(r.Properties.Targets).includes(sweepId))).toHaveLength(1);
    expect(Object.keys(sweep.Properties.Environment.Variables)).toEqual(expect.arrayContaining(['TABLE_NAME', 'BUCKET_NAME']));
  });

  it('may list the image prefix, delete image objects and read items (by key, and a verification\'s challenges by Query); nothing else of S3 or the table', () => {
    expect(actions().filter((a) => a.startsWith('s3:') || a.startsWith('dynamodb:'))).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query', 's3:DeleteObject', 's3:ListBucket']);
    expect(actions().filter((a) => a.startsWith('kms:'))).toEqual(['kms:Decrypt', 'kms:DescribeKey']);
    const list = statements().find((s) => s.Action === 's3:ListBucket')!;
    expect(list.Condition).toEqual({ StringLike: { 's3:prefix': ['documents/*'] } });
    expect(JSON.stringify(statements().find((s) => s.Action === 's3:DeleteObject')!.Resource)).toContain('/documents/*');
  });
});
