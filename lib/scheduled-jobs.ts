import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { DataStore } from './data-store';
import { ServiceFunction } from './service-function';

export interface ScheduledJobsProps {
  table: ITable;
  images: Pick<DataStore, 'grantImageWrite'>;
  sessionSecret: ISecret;
  environment: Record<string, string>;
}

/** Hourly jobs: expiry (Started past the flow's limit → Expired) and purge (soft-deleted past retention → removed, images first). */
export class ScheduledJobs extends Construct {
  constructor(scope: Construct, id: string, props: ScheduledJobsProps) {
    super(scope, id);
    const jobs = [
      { name: 'ExpireVerifications', file: 'jobs/expire-verifications', timeout: Duration.minutes(5), images: false },
      { name: 'PurgeDeleted', file: 'jobs/purge-deleted', timeout: Duration.minutes(10), images: true },
    ];
    for (const job of jobs) {
      const fn = new ServiceFunction(this, `${job.name}Function`, { file: job.file, environment: { ...props.environment, WORKFLOW: 'none' }, timeout: job.timeout });
      props.table.grantReadWriteData(fn);
      props.sessionSecret.grantRead(fn);
      if (job.images) props.images.grantImageWrite(fn);
      new Rule(this, `${job.name}Schedule`, { schedule: Schedule.rate(Duration.hours(1)), targets: [new LambdaFunction(fn, { retryAttempts: 2 })] });
    }
  }
}
