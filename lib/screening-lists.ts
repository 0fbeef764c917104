import { type CfnElement, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IEventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { SNAPSHOT_PREFIX } from '../src/adapters/s3/screening-snapshots';
import type { ScreeningSources } from '../src/app/screening-sources';
import { grantEntryPorts, ServiceFunction } from './service-function';

/** The refresh job's entry (functions/jobs/refresh-screening-lists.ts). */
export const REFRESH_FILE = 'jobs/refresh-screening-lists';

export interface ScreeningListsProps {
  table: ITable;
  sessionSecret: ISecret;
  bus: IEventBus;
  environment: Record<string, string>;
  /** The lists' sources (config/screening-sources.json): URLs are configuration, not code. */
  sources: ScreeningSources;
  /** How often the lists are fetched. Default every 6 hours. */
  every?: Duration;
}

/**
 * Sanctions lists, deployed: a versioned bucket of snapshots and the job that refreshes them on a
 * schedule (downloads each configured source, validates it, stores a new version, then re-screens
 * the approved verifications of the flows that opt in: src/app/screening-refresh.ts). The pipeline
 * reads the newest snapshots (`grantRead`). The stale-list alarm is in lib/operations.ts.
 */
export class ScreeningLists extends Construct {
  readonly bucket: Bucket;
  readonly refresh: ServiceFunction;

  constructor(scope: Construct, id: string, props: ScreeningListsProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Snapshots', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Every snapshot is kept as fetched (a decision names the list's date): versions are the audit trail.
      versioned: true,
      lifecycleRules: [
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { id: 'OldSnapshots', prefix: SNAPSHOT_PREFIX, expiration: Duration.days(400), noncurrentVersionExpiration: Duration.days(400) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Public sanctions lists, written by one job and read by the pipeline only (both in CloudTrail); every version is kept, which is the audit trail a log would give.',
    });
    this.refresh = new ServiceFunction(this, 'RefreshScreeningListsFunction', {
      file: REFRESH_FILE,
      environment: { ...props.environment, SCREENING_BUCKET: this.bucket.bucketName, SCREENING_SOURCES: JSON.stringify(props.sources) },
      // The OFAC and UN files parse in seconds; the re-screen passes over the opted-in people once.
      timeout: Duration.minutes(10),
      memorySize: 2048,
    });
    grantEntryPorts(this.refresh, REFRESH_FILE, props);
    this.grantRead(this.refresh);
    this.refresh.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [this.bucket.arnForObjects(`${SNAPSHOT_PREFIX}*`)] }));
    Validations.of(Stack.of(this)).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnElement)}.Arn>/${SNAPSHOT_PREFIX}*]`,
      reason: 'Snapshot objects have generated keys under lists/ in the screening bucket only (a folder per list and version); the job writes there and the pipeline reads there, nothing else.',
    });
    new Rule(this, 'RefreshScreeningListsSchedule', { schedule: Schedule.rate(props.every ?? Duration.hours(6)), targets: [new LambdaFunction(this.refresh, { retryAttempts: 2 })] });
  }

  /**
   * Reading the snapshots: GetObject under the lists' prefix, and ListBucket on that prefix alone
   * (without it S3 answers a missing pointer with 403, not 404: a list never stored would read as an
   * outage instead of "none yet").
   */
  grantRead(fn: IGrantable): void {
    fn.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${SNAPSHOT_PREFIX}*`)] }));
    fn.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.bucket.bucketArn], conditions: { StringLike: { 's3:prefix': [`${SNAPSHOT_PREFIX}*`] } } }),
    );
  }
}
