import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent } from '../../events/events';
import type { Outbox } from '../../ports/outbox';
import { keys } from './keys';

/** Outbox rows are written by the repositories' transactions (outboxToItem); this reads and removes them. */
export class DynamoOutbox implements Outbox {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async pending(before: string, limit: number): Promise<DomainEvent[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'GSI3',
        KeyConditionExpression: 'GSI3PK = :pk AND GSI3SK < :before',
        ExpressionAttributeValues: { ':pk': keys.outboxPartition, ':before': before },
        Limit: limit,
      }),
    );
    const rows = (out.Items ?? []).map((i) => ({ PK: i.PK as string, SK: i.SK as string }));
    if (rows.length === 0) return [];
    const got = await this.db.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: rows, ConsistentRead: true } } }));
    return (got.Responses?.[this.table] ?? [])
      .map((i) => ({ type: i.type, detail: i.detail }) as DomainEvent)
      .sort((a, b) => (a.detail.created_at < b.detail.created_at ? -1 : 1));
  }

  async remove(eventIds: string[]): Promise<void> {
    for (let i = 0; i < eventIds.length; i += 25) {
      await this.db.send(
        new BatchWriteCommand({ RequestItems: { [this.table]: eventIds.slice(i, i + 25).map((id) => ({ DeleteRequest: { Key: keys.outbox(id) } })) } }),
      );
    }
  }
}
