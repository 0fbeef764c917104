import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, ScanCommand, type ScanCommandOutput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { indexes, keys } from './keys';
import { listEntries, verificationFromItem } from './mappers';

/**
 * One-off maintenance for tables that hold verifications written before the status lists and search
 * (GSI4): gives every live verification its GSI4 key and list entries, then sets every status
 * counter to the number counted. Run it right after the deploy that adds GSI4, with the API stopped
 * (no writes): a status change made while it runs could be counted twice or not at all. Idempotent:
 * running it again sets the same values. A Scan, so never part of a request path.
 */
export async function backfillListEntries(db: DynamoDBDocumentClient, table: string): Promise<{ verifications: number; counters: number }> {
  // Per status counter (its partition key): the total counted and the shards found, which are replaced
  // by one shard holding the total.
  const counts = new Map<string, { index: Record<string, string>; total: number; shards: Set<string> }>();
  const count = (key: { PK: string }, index: Record<string, string>) => {
    const c = counts.get(key.PK) ?? { index, total: 0, shards: new Set<string>() };
    c.index = index;
    c.total++;
    counts.set(key.PK, c);
  };
  let verifications = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await db.send(
      new ScanCommand({
        TableName: table,
        // Live verifications, and the counters (a status counter moved by writes made before the backfill is reset too).
        FilterExpression: '(entity = :v AND attribute_not_exists(deleted_at)) OR entity = :c',
        ExpressionAttributeValues: { ':v': 'verification', ':c': 'counter' },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      if (item.entity === 'counter') {
        const pk = item[indexes.lookup.pk];
        if (typeof pk !== 'string') continue;
        const c = counts.get(String(item.PK)) ?? {
          index: { [indexes.lookup.pk]: pk, [indexes.lookup.sk]: String(item[indexes.lookup.sk]) },
          total: 0,
          shards: new Set<string>(),
        };
        c.shards.add(String(item.SK));
        counts.set(String(item.PK), c);
        continue;
      }
      const v = verificationFromItem(item);
      const index = keys.byStatus(v.status, v.id);
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.verification(v.id),
          UpdateExpression: `SET ${indexes.lookup.pk} = :pk, ${indexes.lookup.sk} = :sk`,
          ConditionExpression: '#status = :status AND attribute_not_exists(deleted_at)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':pk': index.GSI4PK, ':sk': index.GSI4SK, ':status': v.status },
        }),
      );
      for (const entry of listEntries(v).puts) await db.send(new PutCommand({ TableName: table, Item: entry }));
      count(keys.statusCounter(v.status), keys.byStatus(v.status, keys.COUNTER_SORT));
      count(keys.flowStatusCounter(v.flow, v.status), keys.byFlowStatus(v.flow, v.status, keys.COUNTER_SORT));
      verifications++;
    }
    start = page.LastEvaluatedKey;
  } while (start);
  for (const [pk, { index, total, shards }] of counts) {
    const first = keys.counterItem(pk, 0);
    await db.send(new PutCommand({ TableName: table, Item: { ...first, ...index, entity: 'counter', total } }));
    for (const sk of shards) if (sk !== first.SK) await db.send(new DeleteCommand({ TableName: table, Key: { PK: pk, SK: sk } }));
  }
  return { verifications, counters: counts.size };
}
