import { BatchWriteCommand, type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Flow } from '../../domain/flow';
import type { FlowRepository } from '../../ports/flow-repository';
import { indexes, keys } from './keys';

/** Item written for a flow (by the deploy custom resource and by local start). */
export function flowToItem(flow: Flow): Record<string, unknown> {
  return { ...keys.flow(flow.path), ...keys.flowListed(flow.path), entity: 'flow', config: flow };
}

/**
 * Flows change only at deploy, so each container caches them for `ttlMs`: Create Verification
 * then costs one write and no read.
 */
export class DynamoFlowRepository implements FlowRepository {
  private cache = new Map<string, { flow: Flow | undefined; at: number }>();
  private all: { flows: Flow[]; at: number } | undefined;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(path: string): Promise<Flow | undefined> {
    const hit = this.cache.get(path);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.flow;
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.flow(path) }));
    const flow = out.Item?.config as Flow | undefined;
    this.cache.set(path, { flow, at: this.now() });
    return flow;
  }

  async list(): Promise<Flow[]> {
    if (this.all && this.now() - this.all.at < this.ttlMs) return this.all.flows;
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: indexes.grouped.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': indexes.grouped.pk },
        ExpressionAttributeValues: { ':pk': keys.flowsPartition },
      }),
    );
    const paths = (out.Items ?? []).map((i) => String(i[indexes.grouped.sk]));
    const flows = (await Promise.all(paths.map((p) => this.get(p)))).filter((f): f is Flow => f !== undefined);
    this.all = { flows, at: this.now() };
    return flows;
  }

  /** Writes every flow (local start; the deployed stack does the same through a custom resource). */
  async putAll(flows: Flow[]): Promise<void> {
    for (let i = 0; i < flows.length; i += 25) {
      await this.db.send(
        new BatchWriteCommand({
          RequestItems: { [this.table]: flows.slice(i, i + 25).map((f) => ({ PutRequest: { Item: flowToItem(f) } })) },
        }),
      );
    }
    this.cache.clear();
    this.all = undefined;
  }
}
