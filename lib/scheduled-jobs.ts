import { ArnFormat, type CfnElement, Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IEventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { IMAGE_PREFIX } from '../src/app/documents';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { DataStore } from './data-store';
import { grantEntryPorts, ServiceFunction } from './service-function';

export interface ScheduledJobsProps {
  table: ITable;
  images: Pick<DataStore, 'grantImageWrite' | 'bucket'>;
  sessionSecret: ISecret;
  bus: IEventBus;
  environment: Record<string, string>;
  /** The run sweeper starts executions again and asks for their state. */
  stateMachine: StateMachine;
}

/** Scheduled jobs: hourly expiry and purge, the outbox publisher and the run sweeper every minute, the orphan-image sweep daily. */
export class ScheduledJobs extends Construct {
  constructor(scope: Construct, id: string, props: ScheduledJobsProps) {
    super(scope, id);
    const jobs = [
      { name: 'ExpireVerifications', file: 'jobs/expire-verifications', timeout: Duration.minutes(5), images: false, every: Duration.hours(1) },
      { name: 'PurgeDeleted', file: 'jobs/purge-deleted', timeout: Duration.minutes(10), images: true, every: Duration.hours(1) },
      { name: 'PublishOutbox', file: 'jobs/publish-outbox', timeout: Duration.minutes(1), images: false, every: Duration.minutes(1) },
      { name: 'SweepRuns', file: 'jobs/sweep-runs', timeout: Duration.minutes(1), images: false, every: Duration.minutes(1) },
    ];
    for (const job of jobs) {
      const sweeper = job.name === 'SweepRuns';
      const environment = sweeper ? { ...props.environment, STATE_MACHINE_ARN: props.stateMachine.stateMachineArn } : props.environment;
      const fn = new ServiceFunction(this, `${job.name}Function`, { file: job.file, environment, timeout: job.timeout });
      if (sweeper) this.grantSweeper(fn, props.stateMachine);
      grantEntryPorts(fn, job.file, props);
      if (job.images) props.images.grantImageWrite(fn);
      new Rule(this, `${job.name}Schedule`, { schedule: Schedule.rate(job.every), targets: [new LambdaFunction(fn, { retryAttempts: 2 })] });
    }
    this.orphanSweep(props);
  }

  /**
   * The orphan-image sweep (src/app/sweep-orphans.ts), daily: it lists the image prefix, reads
   * document and liveness challenge items (a verification's challenges by Query) and deletes image objects. Nothing more: no table write, no object read
   * or write (listing and deleting need no image key; its table key grant is read-only: src/entries.ts
   * TABLE_READ_ONLY_ENTRIES), so it is granted apart from the other jobs.
   */
  private orphanSweep(props: ScheduledJobsProps): void {
    const file = 'jobs/sweep-orphans';
    const fn = new ServiceFunction(this, 'SweepOrphansFunction', { file, environment: props.environment, timeout: Duration.minutes(15) });
    // GetItem: a liveness challenge; BatchGetItem: document items; Query: the Rekognition sessions of a verification (their image keys).
    props.table.grant(fn, 'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query');
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [props.images.bucket.bucketArn], conditions: { StringLike: { 's3:prefix': [`${IMAGE_PREFIX}*`] } } }),
    );
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [props.images.bucket.arnForObjects(`${IMAGE_PREFIX}*`)] }));
    new Rule(this, 'SweepOrphansSchedule', { schedule: Schedule.rate(Duration.days(1)), targets: [new LambdaFunction(fn, { retryAttempts: 2 })] });
  }

  /** StartExecution on the state machine, DescribeExecution on its executions only. */
  private grantSweeper(fn: ServiceFunction, stateMachine: StateMachine): void {
    stateMachine.grantStartExecution(fn);
    const executions = Stack.of(this).formatArn({
      service: 'states',
      resource: 'execution',
      resourceName: `${stateMachine.stateMachineName}:*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    fn.addToRolePolicy(new PolicyStatement({ actions: ['states:DescribeExecution'], resources: [executions] }));
    const stack = Stack.of(this);
    const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
    const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:${region}:${account}:execution:<${stack.getLogicalId(stateMachine.node.defaultChild as CfnElement)}.Name>:*]`,
      reason: 'The sweeper reads the state of any execution of this one state machine (execution names are per verification run).',
    });
  }
}
