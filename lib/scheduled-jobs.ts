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
    const expire = new ServiceFunction(this, 'ExpireVerificationsFunction', {
      file: 'jobs/expire-verifications',
      environment: { ...props.environment, WORKFLOW: 'none' },
      timeout: Duration.minutes(5),
    });
    props.table.grantReadWriteData(expire);
    props.sessionSecret.grantRead(expire);
    new Rule(this, 'ExpireVerificationsSchedule', { schedule: Schedule.rate(Duration.hours(1)), targets: [new LambdaFunction(expire, { retryAttempts: 2 })] });

    const purge = new ServiceFunction(this, 'PurgeDeletedFunction', {
      file: 'jobs/purge-deleted',
      environment: { ...props.environment, WORKFLOW: 'none' },
      timeout: Duration.minutes(10),
    });
    props.table.grantReadWriteData(purge);
    props.sessionSecret.grantRead(purge);
    props.images.grantImageWrite(purge);
    new Rule(this, 'PurgeDeletedSchedule', { schedule: Schedule.rate(Duration.hours(1)), targets: [new LambdaFunction(purge, { retryAttempts: 2 })] });
  }
}
