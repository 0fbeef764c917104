import { marshall } from '@aws-sdk/util-dynamodb';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { flowToItem } from '../src/adapters/dynamodb/flow-repository';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../src/adapters/dynamodb/table-definition';
import { IMAGE_PREFIX } from '../src/app/documents';
import type { Flow } from '../src/domain/flow';

export interface DataStoreProps {
  /** Resolved flows from config/flows.json, written into the table at every deploy. */
  flows: Flow[];
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

  constructor(scope: Construct, id: string, props: DataStoreProps) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      encryption: TableEncryption.AWS_MANAGED,
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
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const flow of props.flows) {
      const put = {
        service: 'DynamoDB',
        action: 'putItem',
        parameters: { TableName: this.table.tableName, Item: marshall(flowToItem(flow), { removeUndefinedValues: true }) },
        physicalResourceId: PhysicalResourceId.of(`flow-${flow.path}`),
      };
      const seed = new AwsCustomResource(this, `Flow-${flow.path}`, {
        onCreate: put,
        onUpdate: put,
        policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [this.table.tableArn] }),
        installLatestAwsSdk: false,
      });
      seed.node.addDependency(this.table);
    }
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
