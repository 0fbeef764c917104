import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';

/** The sort keys read: those between two keys (inclusive), or those starting with a prefix. */
export type SortKeyRange = { between: [string, string] } | { beginsWith: string };

/**
 * The items of one partition (`sk`: only those sort keys), strongly consistent, in sort-key order
 * (`newestFirst`: descending), at most `limit` (default all): one Query unless the items exceed a 1 MB page.
 */
export async function partitionItems(
  db: DynamoDBDocumentClient,
  table: string,
  pk: string,
  { newestFirst = false, limit = Infinity, sk }: { newestFirst?: boolean; limit?: number; sk?: SortKeyRange } = {},
): Promise<Record<string, unknown>[]> {
  const range =
    sk === undefined
      ? { condition: '', values: {} }
      : 'between' in sk
        ? { condition: ' AND SK BETWEEN :from AND :to', values: { ':from': sk.between[0], ':to': sk.between[1] } }
        : { condition: ' AND begins_with(SK, :prefix)', values: { ':prefix': sk.beginsWith } };
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: `PK = :pk${range.condition}`,
        ExpressionAttributeValues: { ':pk': pk, ...range.values },
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
