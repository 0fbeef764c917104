import { marshall } from '@aws-sdk/util-dynamodb';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { BackupPlan, BackupPlanRule, BackupResource } from 'aws-cdk-lib/aws-backup';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { flowToItem } from '../src/adapters/dynamodb/flow-repository';
import { keys } from '../src/adapters/dynamodb/keys';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../src/adapters/dynamodb/table-definition';
import { IMAGE_PREFIX } from '../src/app/documents';
import type { Flow } from '../src/domain/flow';

export interface DataStoreProps {
  /** Resolved flows (config/flows.json), written into the table at every deploy; a flow removed from them is deleted from the table. */
  flows: Flow[];
  /** An AWS Backup plan for the table and the image bucket (daily, kept `backup.deleteAfter`); default none (PITR covers the table for 35 days). */
  backup?: BackupOptions;
}

export interface BackupOptions {
  /** How long each recovery point is kept (and with it the data of verifications deleted since). Default 35 days. */
  deleteAfter?: Duration;
  /**
   * Back up the image bucket too. AWS Backup needs S3 versioning for that: the bucket is then versioned and a
   * deleted image's previous version expires one day later. Default false (the table only).
   */
  images?: boolean;
}

/**
 * The single DynamoDB table (keys and indexes from src/adapters/dynamodb/table-definition.ts, the
 * same definition the local runtime creates) and the private image bucket.
 */
export class DataStore extends Construct {
  readonly table: Table;
  readonly bucket: Bucket;
  /** The image bucket's own KMS key (rotation on). */
  readonly imageKey: Key;
  /** The table's own KMS key (rotation on): it holds the same personal data as the images. */
  readonly tableKey: Key;
  readonly backupPlan?: BackupPlan;

  constructor(scope: Construct, id: string, props: DataStoreProps) {
    super(scope, id);
    this.tableKey = new Key(this, 'TableKey', {
      description: 'Encrypts the identity-verification table',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.tableKey,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        ...(index.nonKeyAttributes.length
          ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.nonKeyAttributes] }
          : { projectionType: ProjectionType.KEYS_ONLY }),
      });
    }
    Validations.of(this.table).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason: 'Point-in-time recovery is enabled through pointInTimeRecoverySpecification.',
    });

    const accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket of the image bucket; logging it into itself would loop.',
    });

    const imagesBackedUp = props.backup?.images === true;
    this.imageKey = new Key(this, 'ImageKey', {
      description: 'Encrypts identity document images',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.bucket = new Bucket(this, 'Images', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.KMS,
      encryptionKey: this.imageKey,
      bucketKeyEnabled: true,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'images/',
      cors: [{ allowedMethods: [HttpMethods.GET], allowedOrigins: ['*'], maxAge: 3000 }],
      // Images live as long as their verification and go with it (the purge job, DELETED_RETENTION_DAYS after a
      // delete): no age-based expiry, which S3 counts from the upload, not from the delete. Unversioned unless
      // backed up, so that a delete removes an image; versioned, a deleted image's last version goes a day later.
      versioned: imagesBackedUp,
      lifecycleRules: [
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        ...(imagesBackedUp ? [{ id: 'DeletedImages', noncurrentVersionExpiration: Duration.days(1), expiredObjectDeleteMarker: true }] : []),
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const flow of props.flows) {
      const put = {
        service: 'DynamoDB',
        action: 'putItem',
        parameters: { TableName: this.table.tableName, Item: marshall(flowToItem(flow), { removeUndefinedValues: true }) },
        physicalResourceId: PhysicalResourceId.of(`flow-${flow.path}`),
      };
      // A flow taken out of the configuration loses its resource at the next deploy, and with it its item (and its
      // place in the list of flows): creating verifications in it answers 404 from then on.
      const remove = {
        service: 'DynamoDB',
        action: 'deleteItem',
        parameters: { TableName: this.table.tableName, Key: marshall(keys.flow(flow.path)) },
      };
      const seed = new AwsCustomResource(this, `Flow-${flow.path}`, {
        onCreate: put,
        onUpdate: put,
        onDelete: remove,
        policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [this.table.tableArn] }),
        installLatestAwsSdk: false,
      });
      this.grantTableKey(seed, 'write');
      seed.node.addDependency(this.table);
    }

    if (props.backup) this.backupPlan = this.createBackupPlan(props.backup, imagesBackedUp);
  }

  /** A daily AWS Backup plan of the table (and of the images when asked), with a role of its own. */
  private createBackupPlan(options: BackupOptions, images: boolean): BackupPlan {
    const plan = new BackupPlan(this, 'Backup', {
      backupPlanRules: [new BackupPlanRule({ ruleName: 'Daily', scheduleExpression: Schedule.cron({ hour: '3', minute: '0' }), deleteAfter: options.deleteAfter ?? Duration.days(35) })],
    });
    const managed = ['AWSBackupServiceRolePolicyForBackup', 'AWSBackupServiceRolePolicyForRestores', ...(images ? ['AWSBackupServiceRolePolicyForS3Backup', 'AWSBackupServiceRolePolicyForS3Restore'] : [])];
    const role = new Role(this, 'BackupRole', {
      assumedBy: new ServicePrincipal('backup.amazonaws.com'),
      managedPolicies: managed.map((name) => ManagedPolicy.fromAwsManagedPolicyName(`service-role/${name}`)),
    });
    for (const name of managed) {
      Validations.of(role).acknowledge({ id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/${name}]`, reason: 'AWS Backup documents its managed service-role policies for backing up and restoring these resources.' });
    }
    this.grantTableKey(role, 'write');
    if (images) this.imageKey.grant(role, 'kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey');
    plan.addSelection('Data', {
      resources: [BackupResource.fromDynamoDbTable(this.table), ...(images ? [BackupResource.fromArn(this.bucket.bucketArn)] : [])],
      role,
    });
    return plan;
  }

  /** Table reads need the table key's Decrypt; writes encrypt with it too (named actions, no wildcard). */
  grantTableKey(fn: IGrantable, access: 'read' | 'write'): void {
    if (access === 'read') this.tableKey.grant(fn, 'kms:Decrypt', 'kms:DescribeKey');
    else this.tableKey.grant(fn, 'kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey');
  }

  /** s3:GetObject on image keys (signing links, reading for extraction or reports) and decrypt with the image key. */
  grantImageRead(fn: IGrantable): void {
    fn.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${IMAGE_PREFIX}*`)] }));
    this.imageKey.grantDecrypt(fn);
  }

  /** Read, put and delete image objects, and encrypt/decrypt with the image key. */
  grantImageWrite(fn: IGrantable): void {
    fn.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], resources: [this.bucket.arnForObjects(`${IMAGE_PREFIX}*`)] }),
    );
    this.imageKey.grant(fn, 'kms:Decrypt', 'kms:GenerateDataKey');
  }
}
