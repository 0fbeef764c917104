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
import { ConflictError } from '../../domain/errors';
import type { VerificationFilter, VerificationPage, VerificationRepository } from '../../ports/verification-repository';
import { normaliseSearch, searchTerms } from '../../domain/search';
import { Transaction, type TransactItem } from './transaction';
import { formatTimestamp } from '../../domain/time';
import { COUNTER_SHARDS, indexes, keys } from './keys';
import { partitionItems } from './partition';
import { committedMarker } from './idempotency-store';
import { HISTORY_SHOWN } from '../../domain/retention';

/** Items one Query reads before Get Verification switches to reading the history's newest entries only. */
const WHOLE_PARTITION_ITEMS = HISTORY_SHOWN + 20;

import type { DomainEvent } from '../../events/events';
import {
  documentFromItem,
  documentToItem,
  historyFromItem,
  historyToItem,
  outboxToItem,
  runTicketToItem,
  listEntries,
  listEntryKeys,
  verificationFromItem,
  verificationToItem,
} from './mappers';

export class DynamoVerificationRepository implements VerificationRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(v: Verification, history: HistoryEntry, sessionTokenHash: string): Promise<void> {
    const entries = listEntries(v);
    const tx = new Transaction<'idempotency'>()
      .addAll([
        { Put: { TableName: this.table, Item: verificationToItem(v), ConditionExpression: 'attribute_not_exists(PK)' } },
        { Put: { TableName: this.table, Item: historyToItem(v.id, history) } },
        {
          Put: {
            TableName: this.table,
            Item: { ...keys.session(sessionTokenHash), entity: 'session', verification_id: v.id },
          },
        },
        ...entries.puts.map((Item): TransactItem => ({ Put: { TableName: this.table, Item } })),
        ...this.counterUpdates(v, 1),
        ...this.statusCounterUpdates(v, 1),
      ])
      .addAll(committedMarker(v.id));
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
    } catch (error) {
      // A fresh id never exists: a cancelled transaction is a concurrent writer on a counter, or a claim taken over.
      if (tx.failed(error)) throw new ConflictError();
      throw error;
    }
  }

  /** +1/-1 on a counter item that sits at the top of the index partition it counts (`index`: its index keys). */
  private counterUpdate(key: Record<string, string>, index: Record<string, string>, delta: 1 | -1): TransactItem {
    return {
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
    };
  }

  /** +1/-1 on the flow counter and the all-flows counter (the verification's shard), in the caller's transaction. */
  private counterUpdates(v: Pick<Verification, 'id' | 'flow'>, delta: 1 | -1): TransactItem[] {
    const shard = keys.counterShard(v.id);
    return [
      this.counterUpdate(keys.flowCounter(v.flow, shard), keys.byFlow(v.flow, keys.COUNTER_SORT), delta),
      this.counterUpdate(keys.allCounter(shard), keys.all(keys.COUNTER_SORT), delta),
    ];
  }

  /** +1/-1 on the counters of one status (in its flow, and in all flows; the verification's shard), in the caller's transaction. */
  private statusCounterUpdates(v: Pick<Verification, 'id' | 'flow' | 'status'>, delta: 1 | -1): TransactItem[] {
    const shard = keys.counterShard(v.id);
    return [
      this.counterUpdate(keys.flowStatusCounter(v.flow, v.status, shard), keys.byFlowStatus(v.flow, v.status, keys.COUNTER_SORT), delta),
      this.counterUpdate(keys.statusCounter(v.status, shard), keys.byStatus(v.status, keys.COUNTER_SORT), delta),
    ];
  }

  /** A counter's total: its shards summed (one strongly consistent Query of the counter's partition). */
  private async counterTotal(counter: { PK: string }): Promise<number> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': counter.PK },
        ConsistentRead: true,
      }),
    );
    return (out.Items ?? []).reduce((sum, item) => sum + Number(item.total ?? 0), 0);
  }

  async findBySession(sessionTokenHash: string): Promise<string | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.session(sessionTokenHash), ConsistentRead: true }));
    return out.Item?.verification_id as string | undefined;
  }

  /** Every item of a verification's partition (strongly consistent; one Query unless it exceeds 1 MB). */
  private partition(id: string): Promise<Record<string, unknown>[]> {
    return partitionItems(this.db, this.table, keys.verificationPartition(id));
  }

  /**
   * One Query in the common case: the partition's items in sort-key order (documents, history, list
   * entries, the verification item), up to a page that holds every short-lived verification whole.
   * A partition longer than that (a long history) is read in three: the documents already read,
   * the items after the history (list entries and the verification item), and the newest
   * HISTORY_SHOWN history entries. Whatever the history's length, the read and the answer stay bounded.
   */
  async get(id: string): Promise<VerificationAggregate | undefined> {
    const pk = keys.verificationPartition(id);
    const first: QueryCommandOutput = await this.db.send(
      new QueryCommand({ TableName: this.table, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true, Limit: WHOLE_PARTITION_ITEMS }),
    );
    let items = first.Items ?? [];
    if (first.LastEvaluatedKey) {
      const range = (condition: string, values: Record<string, string>, newestFirst: boolean, limit?: number) =>
        this.db.send(
          new QueryCommand({
            TableName: this.table,
            KeyConditionExpression: `PK = :pk AND ${condition}`,
            ExpressionAttributeValues: { ':pk': pk, ...values },
            ConsistentRead: true,
            ScanIndexForward: !newestFirst,
            ...(limit !== undefined && { Limit: limit }),
          }),
        );
      const history = keys.historySortPrefix;
      const [after, newest] = await Promise.all([
        range('SK > :end', { ':end': `${history}\uffff` }, false),
        range('begins_with(SK, :h)', { ':h': history }, true, HISTORY_SHOWN),
      ]);
      items = [...items.filter((i) => String(i.SK) < history), ...(newest.Items ?? []), ...(after.Items ?? [])];
    }
    const head = items.find((i) => i.entity === 'verification');
    if (!head || head.deleted_at !== undefined) return undefined;
    const history = items.filter((i) => i.entity === 'history').map(historyFromItem);
    return {
      verification: verificationFromItem(head),
      documents: items.filter((i) => i.entity === 'document').map(documentFromItem),
      // Ids are time-ordered (ULIDs): the newest HISTORY_SHOWN.
      history: history.sort((a, b) => (a.id < b.id ? -1 : 1)).slice(-HISTORY_SHOWN),
    };
  }

  /**
   * Offset pagination over a keys-only index. Page 1 reads newest first: the counter item (sort key
   * `~`) comes first with the total. A deeper page reads the counter, then walks the index from
   * whichever end is nearer (newest first, or oldest first and reversed), so no page walks more
   * than half the index; then one BatchGet reads the page's items. The partition read is the one of
   * the filter: one flow (GSI1), all flows (GSI2), one status in all flows or in one flow (GSI4),
   * each with its own counter. A search reads the matching term entries instead (see `search`).
   */
  async list(filter: VerificationFilter, page: number, perPage: number): Promise<VerificationPage> {
    if (filter.search !== undefined) return this.search(filter, filter.search, page, perPage);
    const { flow, status } = filter;
    const index =
      status !== undefined
        ? flow !== undefined
          ? { ...indexes.lookup, value: keys.byFlowStatus(flow, status, '').GSI4PK, counter: keys.flowStatusCounter(flow, status) }
          : { ...indexes.lookup, value: keys.byStatus(status, '').GSI4PK, counter: keys.statusCounter(status) }
        : flow !== undefined
          ? { ...indexes.grouped, value: keys.byFlow(flow, '').GSI1PK, counter: keys.flowCounter(flow) }
          : { ...indexes.all, value: keys.all('').GSI2PK, counter: keys.allCounter() };
    let total: number;
    let pageIds: string[];
    if (page === 1) {
      const head = await this.walk(index, false, perPage);
      total = head.total ?? 0;
      pageIds = head.ids.slice(0, perPage);
    } else {
      total = await this.counterTotal(index.counter);
      const skip = (page - 1) * perPage;
      if (skip >= total) return { items: [], total };
      const take = Math.min(perPage, total - skip);
      if (skip <= total / 2) {
        pageIds = (await this.walk(index, false, skip + take)).ids.slice(skip, skip + take);
      } else {
        const fromOldest = total - skip - take;
        pageIds = (await this.walk(index, true, fromOldest + take)).ids.slice(fromOldest, fromOldest + take).reverse();
      }
    }
    if (pageIds.length === 0) return { items: [], total };
    return { items: await this.readPage(pageIds), total };
  }

  /**
   * Search: every term entry whose normalised term starts with `text` (GSI4 `TERMS`, `begins_with`),
   * filtered by the projected `flow` and `status`, one per verification, newest first. The total is
   * exact because every match is read (keys and two attributes, about 100 bytes each: 1 MB per
   * Query page holds ~10 000); then one BatchGet reads the page's items.
   */
  private async search(filter: VerificationFilter, text: string, page: number, perPage: number): Promise<VerificationPage> {
    const term = normaliseSearch(text);
    const matched = new Set<string>();
    let start: Record<string, unknown> | undefined;
    do {
      const out: QueryCommandOutput = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: indexes.lookup.name,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :term)',
          ExpressionAttributeNames: { '#pk': indexes.lookup.pk, '#sk': indexes.lookup.sk },
          ExpressionAttributeValues: { ':pk': keys.searchPartition, ':term': term },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of out.Items ?? []) {
        if (filter.flow !== undefined && item.flow !== filter.flow) continue;
        if (filter.status !== undefined && item.status !== filter.status) continue;
        matched.add(keys.verificationIdOf(item.PK));
      }
      start = out.LastEvaluatedKey;
    } while (start);
    // Ids are time-ordered (ULIDs): descending is newest first, as the other lists.
    const ids = [...matched].sort().reverse();
    const pageIds = ids.slice((page - 1) * perPage, page * perPage);
    return { items: pageIds.length > 0 ? await this.readPage(pageIds) : [], total: ids.length };
  }

  /**
   * Up to `count` verification ids in one direction (several Query pages if needed). Newest first,
   * the counter's shards (sort key `~`) come before every id: they are summed into `total`, not listed.
   */
  private async walk(index: { name: string; pk: string; value: string }, oldestFirst: boolean, count: number) {
    const ids: string[] = [];
    let total: number | undefined;
    let start: Record<string, unknown> | undefined;
    do {
      const out: QueryCommandOutput = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: index.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': index.pk },
          ExpressionAttributeValues: { ':pk': index.value },
          ScanIndexForward: oldestFirst,
          Limit: count - ids.length + (oldestFirst ? 0 : COUNTER_SHARDS),
          ExclusiveStartKey: start,
        }),
      );
      for (const item of out.Items ?? []) {
        if (keys.isCounter(item)) total = (total ?? 0) + Number(item.total ?? 0);
        else if (ids.length < count) ids.push(keys.verificationIdOf(item.PK));
      }
      start = out.LastEvaluatedKey;
    } while (start && ids.length < count);
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
    const before = change.previous;
    const statusChanged = before.status !== v.status;
    const termsChanged = JSON.stringify(searchTerms(before)) !== JSON.stringify(searchTerms(v));
    const entries = statusChanged || termsChanged ? listEntries(v) : { puts: [], deletes: [] };
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.table,
          Item: verificationToItem(v),
          // The status too: the counters move from the status the item has, never from a stale read.
          ConditionExpression: '#version = :expected AND #status = :before AND attribute_not_exists(deleted_at)',
          ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
          ExpressionAttributeValues: { ':expected': change.expectedVersion, ':before': before.status },
        },
      },
      // A status change moves the verification between the per-status lists and their counters.
      ...(statusChanged ? [...this.statusCounterUpdates(before, -1), ...this.statusCounterUpdates(v, 1)] : []),
      ...entries.puts.map((Item): TransactItem => ({ Put: { TableName: this.table, Item } })),
      ...entries.deletes.map((Key): TransactItem => ({ Delete: { TableName: this.table, Key } })),
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
      // An action run under an Idempotency-Key records the key as committed with it.
      ...committedMarker(v.id),
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
          // Out of both list indexes and the expiry index, into the purge index. No table TTL on it: the
          // purge index entry is how the job finds its images, documents and face descriptor, so it
          // lasts until the job has removed them (a TTL that outran a stalled job would orphan them).
          UpdateExpression: `SET deleted_at = :now, #version = #version + :one, ${indexes.due.pk} = :purgePk, ${indexes.due.sk} = :purgeSk REMOVE ${indexes.grouped.pk}, ${indexes.grouped.sk}, ${indexes.all.pk}, ${indexes.all.sk}, ${indexes.lookup.pk}, ${indexes.lookup.sk}`,
          // At the status read: the status counters move from it (a concurrent change makes this a conflict, retried).
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleted_at) AND #status = :status',
          ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': v.status,
            ':now': deletedAt,
            ':one': 1,
            ':purgePk': keys.purgePartition,
            ':purgeSk': keys.purgeAt(formatTimestamp(purgeAt * 1_000_000), v.id).GSI3SK,
          },
        },
      },
      ...this.counterUpdates(v, -1),
      ...this.statusCounterUpdates(v, -1),
      // Out of the per-status list of its flow and out of search.
      ...listEntryKeys(v.id).map((Key): TransactItem => ({ Delete: { TableName: this.table, Key } })),
    ]);
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
    } catch (error) {
      // Deleted meanwhile (the use case re-reads: 404) or its status changed (re-read and delete again).
      if (tx.failed(error)) throw new ConflictError();
      throw error;
    }
  }
}
