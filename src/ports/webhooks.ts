import type { Delivery, Webhook } from '../domain/webhooks';

export interface WebhookRepository {
  create(webhook: Webhook): Promise<void>;
  list(flow: string): Promise<Webhook[]>;
  get(flow: string, id: string): Promise<Webhook | undefined>;
  /** False when it did not exist. */
  delete(flow: string, id: string): Promise<boolean>;
  /** Creates the delivery unless one with that id exists (a redelivered event): returns whether it was created. */
  createDelivery(delivery: Delivery): Promise<boolean>;
  getDelivery(webhookId: string, id: string): Promise<Delivery | undefined>;
  /** Writes `next` if the stored delivery is still at `next.version - 1`; ConflictError otherwise. */
  saveDelivery(next: Delivery): Promise<void>;
  listDeliveries(webhookId: string, limit: number): Promise<Delivery[]>;
}

export interface DeliveryJob {
  flow: string;
  webhookId: string;
  deliveryId: string;
}

/** The retry queue (SQS when deployed, timers locally) and its dead-letter queue. */
export interface DeliveryQueue {
  enqueue(job: DeliveryJob, delaySeconds: number): Promise<void>;
  deadLetter(job: DeliveryJob, reason: string): Promise<void>;
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** POSTs one webhook: no redirects, a timeout, and only to allowed addresses (SSRF guard). */
export interface WebhookSender {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
}
