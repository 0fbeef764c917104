/**
 * The single table, defined once: lib/data-store.ts builds the CDK table from it and
 * local/dynamodb.ts creates the same table in DynamoDB Local.
 */
export const TABLE_KEYS = { partitionKey: 'PK', sortKey: 'SK' } as const;
export const TTL_ATTRIBUTE = 'ttl';

/** GSI1: verifications of one flow; GSI2: verifications of all flows (keys plus the list counter); GSI3: expiry. */
export const INDEXES = [
  { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK', nonKeyAttributes: ['total'] },
  { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK', nonKeyAttributes: ['total'] },
  /** Sparse: only verifications still Started, sorted by expiry time (the expiry job's query). */
  { indexName: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK', nonKeyAttributes: [] },
] as const;
