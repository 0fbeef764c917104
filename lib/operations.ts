import { Duration, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, Dashboard, GraphWidget, type IMetric, MathExpression, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { METRIC, METRICS_NAMESPACE, type MetricName } from '../src/ports/metrics';
import { ServiceFunction } from './service-function';

export interface OperationsProps {
  api: RestApi;
  stateMachine: IStateMachine;
  table: ITable;
  /** Queues whose messages are failures someone must look at (the webhook dead letters). */
  deadLetterQueues: Record<string, IQueue>;
  /** Where alarms go; default: a topic of its own, encrypted with a key CloudWatch may use. */
  alarmTopic?: ITopic;
  /** The `service` dimension of the business metrics (POWERTOOLS_SERVICE_NAME of the functions). */
  serviceName: string;
  /** The CloudWatch dashboard's name. */
  dashboardName: string;
  /** Alarm when the oldest unpublished outbox event is at least this old (the outbox job publishes what is a minute old). Default 5 minutes. */
  outboxAgeBound?: Duration;
  /** Alarm when a verification has been Submitted at least this long (a run normally ends within minutes). Default 30 minutes. */
  submittedBound?: Duration;
  /** When a flow screens: alarm when the newest snapshot of a list is this many days old (the flows' smallest max_age_days) or the refresh stopped. */
  screeningMaxAgeDays?: number;
}

/** Function groups alarmed together, by the folder of their entry file. */
export type FunctionGroup = 'api' | 'workflow' | 'events' | 'jobs';
export function functionGroup(file: string): FunctionGroup {
  if (file.startsWith('workflow/')) return 'workflow';
  if (file.startsWith('events/')) return 'events';
  if (file.startsWith('jobs/')) return 'jobs';
  return 'api';
}

/**
 * Functions Lambda invokes asynchronously (EventBridge rules and schedules): an error is retried
 * twice and then, without a destination, dropped. The webhook deliverer is fed by SQS (its own
 * dead-letter queue) and the others are called synchronously (API Gateway, Step Functions).
 */
export const isInvokedAsynchronously = (file: string): boolean => (file.startsWith('events/') && file !== 'events/deliver-webhook') || file.startsWith('jobs/');

/** CloudWatch allows 10 metrics in one alarm's expression. */
const METRICS_PER_ALARM = 10;
const FIVE_MINUTES = Duration.minutes(5);

/**
 * Failures are never silent: every asynchronously invoked function sends what it finally failed on
 * to a queue, and alarms on dead letters, failed or timed-out executions, function errors and
 * throttles per group, API 5XX and p99 latency, table throttles, the outbox's oldest event, events the
 * outbox set aside and the longest-Submitted verification (business metrics the jobs record) publish to one SNS topic the
 * deployer subscribes to (or brings); one dashboard shows the same metrics and the business ones.
 * Add it after every function exists.
 */
export class Operations extends Construct {
  readonly alarmTopic: ITopic;
  readonly asyncFailures: Queue;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    this.alarmTopic = props.alarmTopic ?? this.createTopic();
    this.asyncFailures = new Queue(this, 'AsyncFailures', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    Validations.of(this.asyncFailures).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is itself the failure destination of the asynchronously invoked functions.' });

    const business = (name: MetricName, statistic: string, dimensions: Record<string, string> = {}) =>
      new Metric({ namespace: METRICS_NAMESPACE, metricName: name, dimensionsMap: { service: props.serviceName, ...dimensions }, period: FIVE_MINUTES, statistic });
    const functions = scope.node.findAll().filter((c): c is ServiceFunction => c instanceof ServiceFunction);
    for (const fn of functions.filter((f) => isInvokedAsynchronously(f.file))) fn.configureAsyncInvoke({ onFailure: new SqsDestination(this.asyncFailures), retryAttempts: 2 });

    const alarm = (name: string, metric: IMetric, threshold: number, description: string, periods = 1, missing = TreatMissingData.NOT_BREACHING) => {
      const a = new Alarm(this, name, {
        metric,
        threshold,
        evaluationPeriods: periods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: missing,
        alarmDescription: description,
      });
      a.addAlarmAction(new SnsAction(this.alarmTopic));
      this.alarms.push(a);
      return a;
    };

    for (const [name, queue] of Object.entries({ ...props.deadLetterQueues, AsyncFailures: this.asyncFailures })) {
      alarm(`${name}Depth`, queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }), 1, `Messages in ${name}: failures that were given up on`);
    }
    alarm('ExecutionsFailed', props.stateMachine.metricFailed({ period: FIVE_MINUTES }), 1, 'A verification run failed (its verification went to Double Check or awaits the sweeper)');
    alarm('ExecutionsTimedOut', props.stateMachine.metricTimedOut({ period: FIVE_MINUTES }), 1, 'A verification run timed out');
    alarm('Api5xx', props.api.metricServerError({ period: FIVE_MINUTES }), 5, 'The API answered 5XX (503 included: a dependency is down)');
    alarm('ApiLatencyP99', props.api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }), 3000, 'API p99 latency at or above 3 s for 15 minutes', 3);
    const throttles = new MathExpression({
      expression: 'r + w',
      usingMetrics: { r: props.table.metric('ReadThrottleEvents', { period: FIVE_MINUTES, statistic: 'Sum' }), w: props.table.metric('WriteThrottleEvents', { period: FIVE_MINUTES, statistic: 'Sum' }) },
      period: FIVE_MINUTES,
    });
    alarm('TableThrottles', throttles, 1, 'DynamoDB throttled reads or writes on the table');
    // Both ages are recorded every minute by their job (jobs/publish-outbox, jobs/sweep-runs): ten minutes without a
    // figure means the job stopped running or recording, which alarms too (missing data breaches).
    const outboxAge = business(METRIC.outboxOldestAge, 'Maximum');
    const submittedAge = business(METRIC.submittedOldestAge, 'Maximum');
    const outboxBound = props.outboxAgeBound ?? Duration.minutes(5);
    const submittedBound = props.submittedBound ?? Duration.minutes(30);
    alarm('OutboxAge', outboxAge, outboxBound.toSeconds(), `An event has waited in the outbox for ${outboxBound.toHumanString()} or more (EventBridge publishing is failing), or the outbox job stopped`, 2, TreatMissingData.BREACHING);
    // Recorded only when the outbox job set events aside: any in five minutes alarms. They wait in the table, out of
    // the pending index, with their reason (src/adapters/dynamodb/outbox.ts setAside) for an operator.
    const setAside = business(METRIC.outboxSetAside, 'Sum');
    alarm('OutboxSetAside', setAside, 1, 'The outbox set aside an event that can never be published (over the 256 KB EventBridge entry limit, or refused as malformed): its consumers and webhooks will not receive it', 1, TreatMissingData.NOT_BREACHING);
    alarm('SubmittedTooLong', submittedAge, submittedBound.toSeconds(), `A verification has been Submitted for ${submittedBound.toHumanString()} or more (its run is stuck or being retried), or the run sweeper stopped`, 2, TreatMissingData.BREACHING);

    if (props.screeningMaxAgeDays !== undefined) {
      // Recorded by each refresh (every 6 hours): a day without a figure means the job stopped, which alarms too. Screening
      // against a list that old already says not evaluated (review): the alarm asks someone to fix the refresh.
      const age = new Metric({ namespace: METRICS_NAMESPACE, metricName: METRIC.screeningSnapshotAge, dimensionsMap: { service: props.serviceName }, period: Duration.days(1), statistic: 'Maximum' });
      alarm('ScreeningListsStale', age, props.screeningMaxAgeDays, `The newest snapshot of a sanctions list is ${props.screeningMaxAgeDays} days old or more (screening then says not evaluated and sends every photo ID to review), or the list refresh stopped`, 1, TreatMissingData.BREACHING);
    }

    const groups = new Map<FunctionGroup, ServiceFunction[]>();
    for (const fn of functions) groups.set(functionGroup(fn.file), [...(groups.get(functionGroup(fn.file)) ?? []), fn]);
    const groupMetrics: Record<string, IMetric[]> = {};
    for (const [group, fns] of groups) {
      for (const kind of ['Errors', 'Throttles'] as const) {
        for (let i = 0; i < fns.length; i += METRICS_PER_ALARM) {
          const chunk = fns.slice(i, i + METRICS_PER_ALARM);
          // Ids unique across the dashboard's graphs, which draw several of these sums together.
          const usingMetrics = Object.fromEntries(chunk.map((fn, j) => [`${kind === 'Errors' ? 'e' : 't'}_${group}_${i + j}`, kind === 'Errors' ? fn.metricErrors({ period: FIVE_MINUTES }) : fn.metricThrottles({ period: FIVE_MINUTES })]));
          const sum = new MathExpression({ expression: Object.keys(usingMetrics).join(' + '), usingMetrics, period: FIVE_MINUTES, label: `${group} ${kind.toLowerCase()}` });
          const suffix = fns.length > METRICS_PER_ALARM ? `${i / METRICS_PER_ALARM + 1}` : '';
          alarm(`${group[0]?.toUpperCase()}${group.slice(1)}${kind}${suffix}`, sum, 1, `${kind} in the ${group} functions${suffix ? ` (part ${suffix})` : ''}`);
          (groupMetrics[kind] ??= []).push(sum);
        }
      }
    }

    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: props.dashboardName });
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'API requests, 5XX and p99 latency', left: [props.api.metricCount({ period: FIVE_MINUTES }), props.api.metricServerError({ period: FIVE_MINUTES })], right: [props.api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' })] }),
      new GraphWidget({ title: 'Verification runs', left: [props.stateMachine.metricSucceeded({ period: FIVE_MINUTES }), props.stateMachine.metricFailed({ period: FIVE_MINUTES }), props.stateMachine.metricTimedOut({ period: FIVE_MINUTES })] }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Function errors by group', left: groupMetrics.Errors ?? [] }),
      new GraphWidget({ title: 'Function throttles by group', left: groupMetrics.Throttles ?? [] }),
      new GraphWidget({ title: 'Dead letters and table throttles', left: [...Object.values(props.deadLetterQueues), this.asyncFailures].map((q) => q.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' })), right: [throttles] }),
    );
    const outcomes = (name: MetricName, values: string[]) => values.map((outcome) => business(name, 'Sum', { outcome }).with({ label: outcome }));
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Verifications created and decided', left: [business(METRIC.verificationsCreated, 'Sum').with({ label: 'created' }), ...outcomes(METRIC.verificationsDecided, ['Approved', 'Rejected', 'Double Check'])] }),
      new GraphWidget({ title: 'Webhook deliveries', left: outcomes(METRIC.webhookDeliveries, ['delivered', 'retrying', 'failed']) }),
      new GraphWidget({ title: 'Oldest outbox event and oldest Submitted verification (s)', left: [outboxAge.with({ label: 'outbox' }), submittedAge.with({ label: 'Submitted' })], right: [setAside.with({ label: 'events set aside' })] }),
    );
    // One line per extractor and context, whichever the flows use.
    const search = (name: MetricName, statistic: string) =>
      new MathExpression({ expression: `SEARCH('{${METRICS_NAMESPACE},context,extractor,service} MetricName="${name}" service="${props.serviceName}"', '${statistic}', 300)`, usingMetrics: {}, period: FIVE_MINUTES });
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Extraction latency p90 (ms)', left: [search(METRIC.extractionLatency, 'p90')] }),
      new GraphWidget({ title: 'Extraction confidence, mean of fields (%)', left: [search(METRIC.extractionConfidence, 'Average')] }),
    );
  }

  /** CloudWatch publishes to an encrypted topic only with a customer key it may use. */
  private createTopic(): Topic {
    const key = new Key(this, 'AlarmTopicKey', { enableKeyRotation: true, description: 'Encrypts the alarm topic of the identity-verification service' });
    key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    return new Topic(this, 'AlarmTopic', { displayName: 'Identity verification alarms', masterKey: key, enforceSSL: true });
  }
}
