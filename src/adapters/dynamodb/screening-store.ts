import { BatchGetCommand, type BatchGetCommandOutput, type DynamoDBDocumentClient, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, InvalidStateError } from '../../domain/errors';
import type { ScreenedPerson, ScreeningHit } from '../../domain/screening/types';
import type { DomainEvent } from '../../events/events';
import type { ClearanceChange, ScreenedRecord, ScreeningClearance, ScreeningStore } from '../../ports/screening-store';
import { committedMarker } from './idempotency-store';
import { indexes, keys } from './keys';
import { documentToItem, historyToItem, outboxToItem, verificationToItem } from './mappers';
import { Transaction } from './transaction';
import { partitionItems } from './partition';

/** Screened records read per page of the re-screen's pass. */
const PAGE = 100;

type Item = Record<string, unknown>;

function clearanceFromItem(i: Item): ScreeningClearance {
  return { list: i.list as string, entry: i.entry as string, user: i.user as string, comment: i.comment as string, createdAt: i.created_at as string };
}

function screenedFromItem(i: Item): ScreenedRecord {
  return { verificationId: i.verification_id as string, flow: i.flow as string, people: (i.people as ScreenedPerson[]) ?? [], screenedAt: i.screened_at as string };
}

/** Screening's items, all in the verification's partition (keys.ts), so Get Verification's read and the purge cover them. */
export class DynamoScreeningStore implements ScreeningStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  private withPrefix(verificationId: string, prefix: string): Promise<Item[]> {
    return partitionItems(this.db, this.table, keys.verificationPartition(verificationId), { sk: { beginsWith: prefix } }) as Promise<Item[]>;
  }

  async clearances(verificationId: string): Promise<ScreeningClearance[]> {
    return (await this.withPrefix(verificationId, keys.screeningClearancePrefix)).map(clearanceFromItem);
  }

  async clear(change: ClearanceChange): Promise<void> {
    const v = change.verification;
    const c = change.clearance;
    const tx = new Transaction<'clearance'>()
      .addAll([
        {
          Put: {
            TableName: this.table,
            Item: verificationToItem(v),
            // The status is unchanged: no counter or list entry moves.
            ConditionExpression: '#version = :expected AND #status = :status AND attribute_not_exists(deleted_at)',
            ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
            ExpressionAttributeValues: { ':expected': change.expectedVersion, ':status': v.status },
          },
        },
        ...(change.document
          ? [
              {
                Put: {
                  TableName: this.table,
                  Item: documentToItem(change.document),
                  ConditionExpression: 'id = :id AND #version = :prev',
                  ExpressionAttributeNames: { '#version': 'version' },
                  ExpressionAttributeValues: { ':id': change.document.id, ':prev': change.document.version - 1 },
                },
              },
            ]
          : []),
        { Put: { TableName: this.table, Item: historyToItem(v.id, change.history), ConditionExpression: 'attribute_not_exists(PK)' } },
      ])
      .add('clearance', {
        Put: {
          TableName: this.table,
          Item: { ...keys.screeningClearance(v.id, c.list, c.entry), entity: 'screening-clearance', list: c.list, entry: c.entry, user: c.user, comment: c.comment, created_at: c.createdAt },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      })
      .addAll(committedMarker(v.id));
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
    } catch (error) {
      const failed = tx.failed(error);
      if (!failed) throw error;
      if (failed.has('clearance')) throw new InvalidStateError(`The hit ${c.list} ${c.entry} is already cleared on this verification`);
      throw new ConflictError();
    }
  }

  async recordScreened(record: ScreenedRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...keys.screened(record.verificationId),
          ...keys.screenedInFlow(record.flow, record.verificationId),
          entity: 'screened',
          verification_id: record.verificationId,
          flow: record.flow,
          people: record.people,
          screened_at: record.screenedAt,
        },
      }),
    );
  }

  async screened(flow: string, cursor?: string): Promise<{ records: ScreenedRecord[]; cursor?: string }> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: indexes.grouped.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': indexes.grouped.pk },
        ExpressionAttributeValues: { ':pk': keys.screenedInFlow(flow, '').GSI1PK },
        Limit: PAGE,
        ...(cursor !== undefined && { ExclusiveStartKey: JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Item }),
      }),
    );
    const rows = (out.Items ?? []).map((i) => ({ PK: i.PK as string, SK: i.SK as string }));
    const records: ScreenedRecord[] = [];
    let pending: Item[] | undefined = rows;
    while (pending && pending.length > 0) {
      const got: BatchGetCommandOutput = await this.db.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: pending, ConsistentRead: true } } }));
      records.push(...(got.Responses?.[this.table] ?? []).map(screenedFromItem));
      pending = got.UnprocessedKeys?.[this.table]?.Keys;
    }
    const next = out.LastEvaluatedKey ? Buffer.from(JSON.stringify(out.LastEvaluatedKey), 'utf8').toString('base64url') : undefined;
    return { records: records.sort((a, b) => a.verificationId.localeCompare(b.verificationId)), ...(next !== undefined && { cursor: next }) };
  }

  async alerts(verificationId: string): Promise<{ list: string; entry: string; asOf: string }[]> {
    return (await this.withPrefix(verificationId, keys.screeningAlertPrefix)).map((i) => ({ list: i.list as string, entry: i.entry as string, asOf: i.as_of as string }));
  }

  async alert(verificationId: string, hit: ScreeningHit, asOf: string, event: DomainEvent): Promise<boolean> {
    const tx = new Transaction<'alert'>()
      .add('alert', {
        Put: {
          TableName: this.table,
          Item: { ...keys.screeningAlert(verificationId, hit.list, hit.entry), entity: 'screening-alert', list: hit.list, entry: hit.entry, as_of: asOf, score: hit.score, event_id: event.detail.id },
          ConditionExpression: 'attribute_not_exists(PK) OR as_of <> :asOf',
          ExpressionAttributeValues: { ':asOf': asOf },
        },
      })
      .addAll([{ Put: { TableName: this.table, Item: outboxToItem(event) } }]);
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
      return true;
    } catch (error) {
      const failed = tx.failed(error);
      if (failed?.has('alert')) return false;
      throw error;
    }
  }
}
