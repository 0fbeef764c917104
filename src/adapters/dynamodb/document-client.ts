import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The document client over a DynamoDB client. In a module of its own because @aws-sdk/lib-dynamodb
 * does not declare itself free of side effects: a bundle keeps it wherever it is imported, so only
 * the modules of functions that use the table may import it (src/clients.ts bundleDefines).
 */
export const documentClient = (client: DynamoDBClient): DynamoDBDocumentClient => DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
