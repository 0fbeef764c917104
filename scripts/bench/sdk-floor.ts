// Benchmark reference: the SDK clients every API function needs, and nothing else.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export const handler = async () => [DynamoDBDocumentClient, DynamoDBClient, S3Client, GetObjectCommand, getSignedUrl].length;
