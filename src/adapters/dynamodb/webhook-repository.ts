import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { committedMarker } from './idempotency-store';
import { Transaction } from './transaction';
import { ConflictError } from '../../domain/errors';
import type { Delivery, Webhook } from '../../domain/webhooks';
import type { WebhookRepository } from '../../ports/webhooks';
import { webhookKeys } from './keys';

/** Deliveries are kept 30 days (table TTL). */
const DELIVERY_RETENTION_SECONDS = 30 * 86_400;

function webhookFromItem(i: Record<string, unknown>): Webhook {
  return {
    id: i.id as string,
    flow: i.flow as string,
    url: i.url as string,
    events: i.events as Webhook['events'],
    secret: i.secret as string,
    // Subscriptions stored before these options existed were signed the idv way and sent in full.
    format: (i.format as Webhook['format'] | undefined) ?? 'idv',
    payload: (i.payload as Webhook['payload'] | undefined) ?? 'full',
    createdAt: i.created_at as string,
  };
}

function deliveryFromItem(i: Record<string, unknown>): Delivery {
  return {
    id: i.id as string,
    webhookId: i.webhook_id as string,
    flow: i.flow as string,
    eventId: i.event_id as string,
    eventType: i.event_type as Delivery['eventType'],
    body: i.body as string,
    status: i.status as Delivery['status'],
    attempts: (i.attempts as Delivery['attempts']) ?? [],
    nextAttemptAt: (i.next_attempt_at as string | null) ?? null,
    createdAt: i.created_at as string,
    updatedAt: i.updated_at as string,
    version: i.version as number,
  };
}

function deliveryToItem(d: Delivery): Record<string, unknown> {
  return {
    ...webhookKeys.delivery(d.webhookId, d.id),
    entity: 'delivery',
    id: d.id,
    webhook_id: d.webhookId,
    flow: d.flow,
    event_id: d.eventId,
    event_type: d.eventType,
    body: d.body,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
    version: d.version,
    ttl: Math.floor(Date.parse(d.createdAt) / 1000) + DELIVERY_RETENTION_SECONDS,
  };
}

export class DynamoWebhookRepository implements WebhookRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(w: Webhook): Promise<void> {
    const put = {
      TableName: this.table,
      Item: { ...webhookKeys.webhook(w.flow, w.id), entity: 'webhook', id: w.id, flow: w.flow, url: w.url, events: w.events, secret: w.secret, format: w.format, payload: w.payload, created_at: w.createdAt },
      ConditionExpression: 'attribute_not_exists(PK)',
    };
    // Under an Idempotency-Key the key is recorded as committed in the same transaction.
    const tx = new Transaction().addAll([{ Put: put }, ...committedMarker(w.id)]);
    try {
      if (tx.items.length === 1) await this.db.send(new PutCommand(put));
      else await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
    } catch (error) {
      if (tx.failed(error)) throw new ConflictError();
      throw error;
    }
  }

  async list(flow: string): Promise<Webhook[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': webhookKeys.webhooksPartition(flow), ':sk': webhookKeys.webhookSortPrefix },
      }),
    );
    return (out.Items ?? []).map(webhookFromItem);
  }

  async get(flow: string, id: string): Promise<Webhook | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: webhookKeys.webhook(flow, id) }));
    return out.Item ? webhookFromItem(out.Item) : undefined;
  }

  async delete(flow: string, id: string): Promise<boolean> {
    const out = await this.db.send(new DeleteCommand({ TableName: this.table, Key: webhookKeys.webhook(flow, id), ReturnValues: 'ALL_OLD' }));
    return out.Attributes !== undefined;
  }

  async createDelivery(d: Delivery): Promise<boolean> {
    try {
      await this.db.send(new PutCommand({ TableName: this.table, Item: deliveryToItem(d), ConditionExpression: 'attribute_not_exists(PK)' }));
      return true;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  async getDelivery(webhookId: string, id: string): Promise<Delivery | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: webhookKeys.delivery(webhookId, id), ConsistentRead: true }));
    return out.Item ? deliveryFromItem(out.Item) : undefined;
  }

  async saveDelivery(next: Delivery): Promise<void> {
    const put = {
      TableName: this.table,
      Item: deliveryToItem(next),
      ConditionExpression: '#version = :prev',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':prev': next.version - 1 },
    };
    // A manual retry under an Idempotency-Key records the key with the attempt it made.
    const tx = new Transaction<'delivery'>().add('delivery', { Put: put }).addAll(committedMarker(next.id));
    try {
      if (tx.items.length === 1) await this.db.send(new PutCommand(put));
      else await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException' || tx.failed(error)?.has('delivery')) {
        throw new ConflictError('The delivery was processed concurrently');
      }
      if (tx.failed(error)) throw new ConflictError();
      throw error;
    }
  }

  async listDeliveries(webhookId: string, limit: number): Promise<Delivery[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': webhookKeys.deliveriesPartition(webhookId), ':sk': webhookKeys.deliverySortPrefix },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map(deliveryFromItem);
  }
}
