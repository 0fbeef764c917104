import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Receipt } from '../../domain/receipt';
import type { ReceiptRepository } from '../../ports/receipts';
import { keys } from './keys';

/** Decision receipts, one item per run in the verification's receipt partition (newest run last). */
export class DynamoReceiptRepository implements ReceiptRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async put(receipt: Receipt): Promise<void> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...keys.receipt(receipt.payload.verification_id, receipt.payload.run), entity: 'receipt', receipt },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async has(verificationId: string, run: number): Promise<boolean> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.receipt(verificationId, run), ConsistentRead: true, ProjectionExpression: 'PK' }));
    return out.Item !== undefined;
  }

  async removeAll(verificationId: string): Promise<void> {
    for (;;) {
      const out = await this.db.send(
        new QueryCommand({ TableName: this.table, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.receiptPartition(verificationId) }, ProjectionExpression: 'PK, SK', Limit: 25 }),
      );
      const items = out.Items ?? [];
      for (const i of items) await this.db.send(new DeleteCommand({ TableName: this.table, Key: { PK: i.PK, SK: i.SK } }));
      if (items.length < 25) return;
    }
  }

  async latest(verificationId: string): Promise<Receipt | undefined> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.receiptPartition(verificationId) },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    return out.Items?.[0]?.receipt as Receipt | undefined;
  }
}
