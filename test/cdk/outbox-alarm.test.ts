import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { IdvStack } from '../../lib/stack';
import { METRIC, METRICS_NAMESPACE } from '../../src/ports/metrics';

// The feature flags of cdk.json, as `cdk synth` sees them; asset bundling skipped, as in stack.test.ts.
const CDK_CONTEXT = JSON.parse(readFileSync(join(__dirname, '..', '..', 'cdk.json'), 'utf8')).context;
const template = Template.fromStack(new IdvStack(new App({ context: { ...CDK_CONTEXT, 'aws:cdk:bundling-stacks': [] } }), 'IdvStack', { env: { account: '123456789012', region: 'eu-west-1' } }));

describe('outbox alarms', () => {
  it('alarms on the first event the outbox job sets aside, to the alarm topic, and not when none was', () => {
    const [alarm, ...others] = Object.entries(template.findResources('AWS::CloudWatch::Alarm')).filter(([id]) => id.startsWith('OperationsOutboxSetAside'));
    expect(others).toEqual([]);
    expect(alarm![1].Properties).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: METRIC.outboxSetAside,
      Dimensions: [{ Name: 'service', Value: 'idv' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: expect.stringMatching(/^OperationsAlarmTopic/) }],
    });
  });
});
