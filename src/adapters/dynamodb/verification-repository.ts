import {
  BatchGetCommand,
  BatchWriteCommand,
  type BatchWriteCommandOutput,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandOutput,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import type { HistoryEntry, Verification, VerificationAggregate, VerificationChange } from '../../domain/entities';
import { ConflictError, NotFoundError } from '../../domain/errors';
import type { VerificationPage, VerificationRepository } from '../../ports/verification-repository';
import { Transaction, type TransactItem } from './transaction';
import { formatTimestamp } from '../../domain/time';
import { indexes, keys } from './keys';

/** The table TTL removes a deleted verification's item this long after its purge was due (if the job never ran). */
const PURGE_BACKSTOP_SECONDS = 7 * 86_400;
import type { DomainEvent } from '../../events/events';
import {
  documentFromItem,
  documentToItem,
  historyFromItem,
  historyToItem,
  outboxToItem,
  runTicketToItem,
  verificationFromItem,
  verificationToItem,
} from './mappers';

export class DynamoVerificationRepository implements VerificationRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(v: Verification, history: HistoryEntry, sessionTokenHash: string): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: this.table, Item: verificationToItem(v), ConditionExpression: 'attribute_not_exists(PK)' } },
          { Put: { TableName: this.table, Item: historyToItem(v.id, history) } },
          {
            Put: {
              TableName: this.table,
              Item: { ...keys.session(sessionTokenHash), entity: 'session', verification_id: v.id },
            },
          },
          ...this.counterUpdates(v.flow, 1),
        ],
      }),
    );
  }

  /** +1/-1 on the flow counter and the all-flows counter, in the caller's transaction. */
  private counterUpdates(flow: string, delta: 1 | -1): TransactItem[] {
    const update = (key: Record<string, string>, index: Record<string, string>): TransactItem => ({
      Update: {
        TableName: this.table,
        Key: key,
        UpdateExpression: `ADD #total :d SET #entity = :e, ${Object.keys(index)
          .map((k) => `#${k} = :${k}`)
          .join(', ')}`,
        ExpressionAttributeNames: {
          '#total': 'total',
          '#entity': 'entity',
          ...Object.fromEntries(Object.keys(index).map((k) => [`#${k}`, k])),
        },
        ExpressionAttributeValues: {
          ':d': delta,
          ':e': 'counter',
          ...Object.fromEntries(Object.entries(index).map(([k, val]) => [`:${k}`, val])),
        },
      },
    });
    return [
      update(keys.flowCounter(flow), keys.byFlow(flow, keys.COUNTER_SORT)),
      update(keys.allCounter, keys.all(keys.COUNTER_SORT)),
    ];
  }

  async findBySession(sessionTokenHash: string): Promise<string | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.session(sessionTokenHash), ConsistentRead: true }));
    return out.Item?.verification_id as string | undefined;
  }

  /** Every item of a verification's partition (strongly consistent; one Query unless it exceeds 1 MB). */
  private async partition(id: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out: QueryCommandOutput = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': keys.verificationPartition(id) },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }

  async get(id: string): Promise<VerificationAggregate | undefined> {
    const items = await this.partition(id);
    const head = items.find((i) => i.entity === 'verification');
    if (!head || head.deleted_at !== undefined) return undefined;
    return {
      verification: verificationFromItem(head),
      documents: items.filter((i) => i.entity === 'document').map(documentFromItem),
      history: items.filter((i) => i.entity === 'history').map(historyFromItem),
    };
  }

  /**
   * Offset pagination over a keys-only index. Page 1 reads newest first: the counter item (sort key
   * `~`) comes first with the total. A deeper page reads the counter, then walks the index from
   * whichever end is nearer (newest first, or oldest first and reversed), so no page walks more
   * than half the index; then one BatchGet reads the page's items.
   */
  async list(flow: string | undefined, page: number, perPage: number): Promise<VerificationPage> {
    const index = flow
      ? { ...indexes.grouped, value: keys.byFlow(flow, '').GSI1PK, counter: keys.flowCounter(flow) }
      : { ...indexes.all, value: keys.all('').GSI2PK, counter: keys.allCounter };
    let total: number;
    let pageIds: string[];
    if (page === 1) {
      const head = await this.walk(index, false, perPage + 1);
      total = head.total ?? 0;
      pageIds = head.ids.slice(0, perPage);
    } else {
      const counter = await this.db.send(new GetCommand({ TableName: this.table, Key: index.counter, ConsistentRead: true }));
      total = Number(counter.Item?.total ?? 0);
      const skip = (page - 1) * perPage;
      if (skip >= total) return { items: [], total };
      const take = Math.min(perPage, total - skip);
      if (skip <= total / 2) {
        pageIds = (await this.walk(index, false, skip + take + 1)).ids.slice(skip, skip + take);
      } else {
        const fromOldest = total - skip - take;
        pageIds = (await this.walk(index, true, fromOldest + take)).ids.slice(fromOldest, fromOldest + take).reverse();
      }
    }
    if (pageIds.length === 0) return { items: [], total };
    return { items: await this.readPage(pageIds), total };
  }

  /** Up to `count` index entries in one direction (several Query pages if needed); the counter is reported, not listed. */
  private async walk(index: { name: string; pk: string; value: string }, oldestFirst: boolean, count: number) {
    const ids: string[] = [];
    let total: number | undefined;
    let start: Record<string, unknown> | undefined;
    let read = 0;
    do {
      const out: QueryCommandOutput = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: index.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': index.pk },
          ExpressionAttributeValues: { ':pk': index.value },
          ScanIndexForward: oldestFirst,
          Limit: count - read,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of out.Items ?? []) {
        read++;
        if (keys.isCounter(item)) total = Number(item.total ?? 0);
        else ids.push(keys.verificationIdOf(item.PK));
      }
      start = out.LastEvaluatedKey;
    } while (start && read < count);
    return { ids, total };
  }

  private async readPage(pageIds: string[]): Promise<Verification[]> {
    const out = await this.db.send(
      new BatchGetCommand({
        RequestItems: { [this.table]: { Keys: pageIds.map((id) => keys.verification(id)), ConsistentRead: true } },
      }),
    );
    const byId = new Map(
      (out.Responses?.[this.table] ?? []).filter((i) => i.deleted_at === undefined).map((i) => [i.id as string, verificationFromItem(i)]),
    );
    let missing = out.UnprocessedKeys?.[this.table]?.Keys;
    while (missing && missing.length > 0) {
      const retry = await this.db.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: missing, ConsistentRead: true } } }));
      for (const i of retry.Responses?.[this.table] ?? []) if (i.deleted_at === undefined) byId.set(i.id as string, verificationFromItem(i));
      missing = retry.UnprocessedKeys?.[this.table]?.Keys;
    }
    return pageIds.map((id) => byId.get(id)).filter((v): v is Verification => v !== undefined);
  }

  async save(change: VerificationChange, events: DomainEvent[] = []): Promise<void> {
    const v = change.verification;
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.table,
          Item: verificationToItem(v),
          ConditionExpression: '#version = :expected AND attribute_not_exists(deleted_at)',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':expected': change.expectedVersion },
        },
      },
      ...change.documents.map(
        (d): TransactItem => ({
          Put: {
            TableName: this.table,
            Item: documentToItem(d),
            ConditionExpression: 'id = :id AND #version = :prev',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':id': d.id, ':prev': d.version - 1 },
          },
        }),
      ),
      ...change.requiredDocuments.map(
        (d): TransactItem => ({
          ConditionCheck: {
            TableName: this.table,
            Key: keys.document(d.verificationId, d.contextType),
            ConditionExpression: 'id = :id AND #version = :version',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':id': d.id, ':version': d.version },
          },
        }),
      ),
      ...change.history.map(
        (h): TransactItem => ({
          Put: { TableName: this.table, Item: historyToItem(v.id, h), ConditionExpression: 'attribute_not_exists(PK)' },
        }),
      ),
      ...events.map((e): TransactItem => ({ Put: { TableName: this.table, Item: outboxToItem(e) } })),
      // A change that starts a run commits its run ticket with it: a crash after the commit cannot lose the run.
      ...(change.startWorkflow
        ? [{ Put: { TableName: this.table, Item: runTicketToItem({ verificationId: v.id, run: v.run, attempt: 0, startedAt: v.updatedAt, checkedAt: v.updatedAt }) } }]
        : []),
    ];
    const tx = new Transaction().addAll(items);
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
    } catch (error) {
      // Any cancelled transaction: a condition failed, or another transaction wrote the same items.
      if (tx.failed(error)) throw new ConflictError();
      throw error;
    }
  }

  deletedDueBefore(now: string, limit: number): Promise<string[]> {
    return this.dueBefore(keys.purgePartition, now, limit);
  }

  /** Verification ids in one GSI3 partition whose time (the sort key's prefix) is before `now`, oldest first. */
  private async dueBefore(partition: string, now: string, limit: number): Promise<string[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: indexes.due.name,
        KeyConditionExpression: '#pk = :pk AND #sk < :now',
        ExpressionAttributeNames: { '#pk': indexes.due.pk, '#sk': indexes.due.sk },
        ExpressionAttributeValues: { ':pk': partition, ':now': now },
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map((i) => keys.verificationIdOf(i.PK));
  }

  async purge(verificationId: string, sessionTokenHash: string, removeImages: (keys: string[]) => Promise<void>): Promise<void> {
    const items = await this.partition(verificationId);
    const head = items.find((i) => i.entity === 'verification');
    if (head && head.deleted_at === undefined) return; // never purge a live verification
    const documents = items.filter((i) => i.entity === 'document').map(documentFromItem);
    await removeImages(documents.flatMap((d) => [d.front.key, ...(d.back ? [d.back.key] : [])]));
    const deletes = [
      ...documents.flatMap((d) => [keys.documentRef(d.id), keys.extraction(d.id)]),
      keys.session(sessionTokenHash),
      ...items.filter((i) => i !== head).map((i) => ({ PK: i.PK as string, SK: i.SK as string })),
      // The verification item last: while it exists, the purge index still lists the work.
      ...(head ? [keys.verification(verificationId)] : []),
    ];
    for (let i = 0; i < deletes.length; i += 25) {
      let pending: { DeleteRequest: { Key: Record<string, unknown> } }[] | undefined = deletes.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
      while (pending && pending.length > 0) {
        const out: BatchWriteCommandOutput = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.table]: pending } }));
        pending = out.UnprocessedItems?.[this.table] as typeof pending;
      }
    }
  }

  startedExpiredBefore(now: string, limit: number): Promise<string[]> {
    return this.dueBefore(keys.startedPartition, now, limit);
  }

  async softDelete(v: Verification, deletedAt: string, purgeAt: number): Promise<void> {
    const tx = new Transaction().addAll([
      {
        Update: {
          TableName: this.table,
          Key: keys.verification(v.id),
          // Removing the index keys takes the verification out of both list indexes.
          // Out of both list indexes and the expiry index, into the purge index.
          UpdateExpression: `SET deleted_at = :now, #ttl = :ttl, #version = #version + :one, ${indexes.due.pk} = :purgePk, ${indexes.due.sk} = :purgeSk REMOVE ${indexes.grouped.pk}, ${indexes.grouped.sk}, ${indexes.all.pk}, ${indexes.all.sk}`,
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleted_at)',
          ExpressionAttributeNames: { '#ttl': 'ttl', '#version': 'version' },
          ExpressionAttributeValues: {
            ':now': deletedAt,
            // The table's TTL is a backstop a week after the purge job is due.
            ':ttl': purgeAt + PURGE_BACKSTOP_SECONDS,
            ':one': 1,
            ':purgePk': keys.purgePartition,
            ':purgeSk': keys.purgeAt(formatTimestamp(purgeAt * 1_000_000), v.id).GSI3SK,
          },
        },
      },
      ...this.counterUpdates(v.flow, -1),
    ]);
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
    } catch (error) {
      if (tx.failed(error)) throw new NotFoundError('Verification not found');
      throw error;
    }
  }
}
