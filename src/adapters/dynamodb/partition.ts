import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';

/**
 * The items of one partition, strongly consistent, in sort-key order (`newestFirst`: descending), at
 * most `limit` (default all): one Query unless the items exceed a 1 MB page.
 */
export async function partitionItems(
  db: DynamoDBDocumentClient,
  table: string,
  pk: string,
  { newestFirst = false, limit = Infinity }: { newestFirst?: boolean; limit?: number } = {},
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
        ScanIndexForward: !newestFirst,
        ...(Number.isFinite(limit) && { Limit: limit - items.length }),
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start && items.length < limit);
  return items;
}
