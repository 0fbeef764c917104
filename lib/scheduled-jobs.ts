import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function';

export interface ScheduledJobsProps {
  table: ITable;
  sessionSecret: ISecret;
  environment: Record<string, string>;
}

/** The hourly expiry job (Started verifications past their flow's limit → Expired). */
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
  }
}
