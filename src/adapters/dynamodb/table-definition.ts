import { indexes } from './keys';

/**
 * The single table, defined once: lib/data-store.ts builds the CDK table from it and
 * local/dynamodb.ts creates the same table in DynamoDB Local.
 */
export const TABLE_KEYS = { partitionKey: 'PK', sortKey: 'SK' } as const;
export const TTL_ATTRIBUTE = 'ttl';

/**
 * The indexes of `keys.ts`: GSI1 and GSI2 list verifications (keys plus the list counter's `total`);
 * GSI3 is sparse, keys only (the jobs' time-ordered queries); GSI4 (status lists and search terms)
 * adds `flow` and `status`, so that search filters on the index alone. One new index per deploy:
 * DynamoDB creates at most one GSI per table update.
 */
export const INDEXES = [
  { indexName: indexes.grouped.name, partitionKey: indexes.grouped.pk, sortKey: indexes.grouped.sk, nonKeyAttributes: ['total'] },
  { indexName: indexes.all.name, partitionKey: indexes.all.pk, sortKey: indexes.all.sk, nonKeyAttributes: ['total'] },
  { indexName: indexes.due.name, partitionKey: indexes.due.pk, sortKey: indexes.due.sk, nonKeyAttributes: [] },
  { indexName: indexes.lookup.name, partitionKey: indexes.lookup.pk, sortKey: indexes.lookup.sk, nonKeyAttributes: ['total', 'flow', 'status'] },
] as const;
