import { type DynamoDBDocumentClient, DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiTokenRecord, ApiTokenRepository } from '../../ports/token-repository';
import { Transaction } from './transaction';
import { indexes, keys } from './keys';

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
      ...(out.Item.reviewer === true && { reviewer: true }),
    };
  }

  private item(r: ApiTokenRecord) {
    return {
      ...keys.token(r.hash),
      ...keys.tokenByName(r.name),
      entity: 'token',
      name: r.name,
      hash: r.hash,
      created_at: r.createdAt,
      ...(r.flows && { flows: r.flows }),
      ...(r.reviewer && { reviewer: true }),
    };
  }

  async put(r: ApiTokenRecord): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: this.item(r) }));
  }

  /**
   * The name is held by its own item, written in the same transaction as the token on condition
   * that it does not exist. Tokens stored before names were held have no such item: the name index
   * is read first for them.
   */
  async create(r: ApiTokenRecord): Promise<boolean> {
    if ((await this.byName(r.name)).length > 0) return false;
    const tx = new Transaction<'name' | 'token'>()
      .add('name', { Put: { TableName: this.table, Item: { ...keys.tokenName(r.name), entity: 'tokenName', name: r.name }, ConditionExpression: 'attribute_not_exists(PK)' } })
      .add('token', { Put: { TableName: this.table, Item: this.item(r), ConditionExpression: 'attribute_not_exists(PK)' } });
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
      return true;
    } catch (error) {
      if (tx.failed(error)?.size) return false;
      throw error;
    }
  }

  private async byName(name: string): Promise<Record<string, unknown>[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: indexes.grouped.name,
        KeyConditionExpression: '#pk = :pk AND #sk = :name',
        ExpressionAttributeNames: { '#pk': indexes.grouped.pk, '#sk': indexes.grouped.sk },
        ExpressionAttributeValues: { ':pk': keys.tokenByName(name).GSI1PK, ':name': name },
      }),
    );
    return out.Items ?? [];
  }

  async deleteByName(name: string): Promise<number> {
    const items = await this.byName(name);
    for (const item of items) {
      await this.db.send(new DeleteCommand({ TableName: this.table, Key: { PK: item.PK, SK: item.SK } }));
    }
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: keys.tokenName(name) }));
    return items.length;
  }
}
