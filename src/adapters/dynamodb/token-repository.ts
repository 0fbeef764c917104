import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiTokenRecord, ApiTokenRepository } from '../../ports/token-repository';
import { keys } from './keys';

const TOKENS_PARTITION = 'TOKENS';

export class DynamoTokenRepository implements ApiTokenRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async findByHash(hash: string): Promise<ApiTokenRecord | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.token(hash) }));
    if (!out.Item) return undefined;
    return {
      name: out.Item.name as string,
      hash: out.Item.hash as string,
      createdAt: out.Item.created_at as string,
      ...(Array.isArray(out.Item.flows) && { flows: out.Item.flows as string[] }),
    };
  }

  async put(r: ApiTokenRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...keys.token(r.hash),
          GSI1PK: TOKENS_PARTITION,
          GSI1SK: r.name,
          entity: 'token',
          name: r.name,
          hash: r.hash,
          created_at: r.createdAt,
          ...(r.flows && { flows: r.flows }),
        },
      }),
    );
  }

  async deleteByName(name: string): Promise<number> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :name',
        ExpressionAttributeValues: { ':pk': TOKENS_PARTITION, ':name': name },
      }),
    );
    for (const item of out.Items ?? []) {
      await this.db.send(new DeleteCommand({ TableName: this.table, Key: { PK: item.PK, SK: item.SK } }));
    }
    return out.Items?.length ?? 0;
  }
}
