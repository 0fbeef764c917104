import { BatchGetCommand, BatchWriteCommand, DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DomainEvent } from '../../events/events';
import type { Outbox, RunTicket, SetAsideEvent } from '../../ports/outbox';
import { indexes, keys } from './keys';
import { runTicketFromItem, runTicketToItem } from './mappers';

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException || (error as { name?: string })?.name === 'ConditionalCheckFailedException';

/** Outbox rows and run tickets are written by the repositories' transactions (outboxToItem, runTicketToItem); this reads and removes them. */
export class DynamoOutbox implements Outbox {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * Items of one partition of the due index whose time is before `before`, read again from the table
   * (the index is eventually consistent: callers act on the items as they are now).
   */
  private async due(partition: string, before: string, limit: number): Promise<Record<string, unknown>[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: indexes.due.name,
        KeyConditionExpression: '#pk = :pk AND #sk < :before',
        ExpressionAttributeNames: { '#pk': indexes.due.pk, '#sk': indexes.due.sk },
        ExpressionAttributeValues: { ':pk': partition, ':before': before },
        Limit: limit,
      }),
    );
    const rows = (out.Items ?? []).map((i) => ({ PK: i.PK as string, SK: i.SK as string }));
    if (rows.length === 0) return [];
    const got = await this.db.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: rows, ConsistentRead: true } } }));
    return got.Responses?.[this.table] ?? [];
  }

  async pending(before: string, limit: number): Promise<DomainEvent[]> {
    return (await this.due(keys.outboxPartition, before, limit))
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

  /**
   * Takes each event out of the pending index, in place: its row keeps the event and gains the reason
   * (`set_aside_code`, `set_aside_message`, `set_aside_at`), and nothing removes it. A row already gone
   * (published meanwhile) is left alone. Should the reason not fit beside an event near DynamoDB's
   * 400 KB item limit, the detail is dropped instead (`detail_dropped`), so that the job never blocks.
   */
  async setAside(events: readonly SetAsideEvent[], at: string): Promise<void> {
    for (const { event, code, message } of events) {
      const update = (dropDetail: boolean) =>
        this.db.send(
          new UpdateCommand({
            TableName: this.table,
            Key: keys.outbox(event.detail.id),
            ConditionExpression: 'attribute_exists(#pk)',
            // Out of the pending partition, into the set-aside one (a Query lists them, oldest first).
            UpdateExpression: `SET set_aside_code = :code, set_aside_message = :message, set_aside_at = :at, #gpk = :dpk, #gsk = :dsk${dropDetail ? ', detail_dropped = :true REMOVE #detail' : ''}`,
            ExpressionAttributeNames: { '#pk': 'PK', '#gpk': indexes.due.pk, '#gsk': indexes.due.sk, ...(dropDetail && { '#detail': 'detail' }) },
            ExpressionAttributeValues: {
              ':code': code,
              ':message': message.slice(0, 500),
              ':at': at,
              ':dpk': keys.outboxSetAside(at, event.detail.id).GSI3PK,
              ':dsk': keys.outboxSetAside(at, event.detail.id).GSI3SK,
              ...(dropDetail && { ':true': true }),
            },
          }),
        );
      try {
        await update(false);
      } catch (error) {
        if (isConditionFailure(error)) continue;
        if ((error as { name?: string }).name !== 'ValidationException') throw error;
        try {
          await update(true);
        } catch (retry) {
          if (!isConditionFailure(retry)) throw retry;
        }
      }
    }
  }

  async dueRuns(before: string, limit: number): Promise<RunTicket[]> {
    return (await this.due(keys.runTicketPartition, before, limit))
      .map(runTicketFromItem)
      .filter((t) => t.checkedAt < before)
      .sort((a, b) => (a.checkedAt < b.checkedAt ? -1 : 1));
  }

  async updateRun(ticket: RunTicket, next: RunTicket): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: runTicketToItem(next),
          ConditionExpression: '#run = :run AND attempt = :attempt AND checked_at = :checked',
          ExpressionAttributeNames: { '#run': 'run' },
          ExpressionAttributeValues: { ':run': ticket.run, ':attempt': ticket.attempt, ':checked': ticket.checkedAt },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async removeRun(ticket: RunTicket): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: keys.runTicket(ticket.verificationId),
          ConditionExpression: '#run = :run AND attempt = :attempt',
          ExpressionAttributeNames: { '#run': 'run' },
          ExpressionAttributeValues: { ':run': ticket.run, ':attempt': ticket.attempt },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}
