import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IEventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { DataStore } from './data-store';
import { ServiceFunction } from './service-function';

export interface ScheduledJobsProps {
  table: ITable;
  images: Pick<DataStore, 'grantImageWrite'>;
  sessionSecret: ISecret;
  bus: IEventBus;
  environment: Record<string, string>;
}

/** Scheduled jobs: hourly expiry and purge, and the outbox publisher every minute. */
export class ScheduledJobs extends Construct {
  constructor(scope: Construct, id: string, props: ScheduledJobsProps) {
    super(scope, id);
    const jobs = [
      { name: 'ExpireVerifications', file: 'jobs/expire-verifications', timeout: Duration.minutes(5), images: false, every: Duration.hours(1) },
      { name: 'PurgeDeleted', file: 'jobs/purge-deleted', timeout: Duration.minutes(10), images: true, every: Duration.hours(1) },
      { name: 'PublishOutbox', file: 'jobs/publish-outbox', timeout: Duration.minutes(1), images: false, every: Duration.minutes(1) },
    ];
    for (const job of jobs) {
      const fn = new ServiceFunction(this, `${job.name}Function`, { file: job.file, environment: { ...props.environment, WORKFLOW: 'none' }, timeout: job.timeout });
      props.table.grantReadWriteData(fn);
      props.sessionSecret.grantRead(fn);
      if (job.images) props.images.grantImageWrite(fn);
      if (job.name === 'PublishOutbox') props.bus.grantPutEventsTo(fn);
      new Rule(this, `${job.name}Schedule`, { schedule: Schedule.rate(job.every), targets: [new LambdaFunction(fn, { retryAttempts: 2 })] });
    }
  }
}
