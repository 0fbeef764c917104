import type { EventType } from '../events/events';

/**
 * How deliveries are signed: `idv` (X-Webhook-Signature `t=…,v1=<hex>`, the Stripe scheme, the
 * default) or `standard-webhooks` (webhook-id / webhook-timestamp / webhook-signature `v1,<base64>`,
 * https://www.standardwebhooks.com).
 */
export const WEBHOOK_FORMATS = ['idv', 'standard-webhooks'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/**
 * What a delivery carries: `thin` (ids, type, status: the receiver fetches the rest with its API
 * token; the default) or `full` (the verification as Get Verification shows it, personal data included).
 */
export const WEBHOOK_PAYLOADS = ['thin', 'full'] as const;
export type WebhookPayload = (typeof WEBHOOK_PAYLOADS)[number];

/** A subscription of one flow's events. The secret signs deliveries; the API shows it only at creation. */
export interface Webhook {
  id: string;
  flow: string;
  url: string;
  events: EventType[];
  secret: string;
  format: WebhookFormat;
  payload: WebhookPayload;
  createdAt: string;
}

export interface DeliveryAttempt {
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event for one subscription, with every attempt recorded. `body` is exactly what is signed and sent. */
export interface Delivery {
  id: string;
  webhookId: string;
  flow: string;
  eventId: string;
  eventType: EventType;
  body: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface RetryPolicy {
  /** First retry delay; doubles per attempt. */
  baseSeconds: number;
  /** Longest single delay (SQS's maximum message delay is 900 s). */
  maxDelaySeconds: number;
  /** Give up (dead letter) once the next attempt would come later than this after the event. */
  maxAgeSeconds: number;
}

/** Exponential backoff with jitter: base·2^(n−1), capped, then a random share between half and all of it. */
export function backoffSeconds(policy: RetryPolicy, attempt: number, random: number): number {
  const full = Math.min(policy.maxDelaySeconds, policy.baseSeconds * 2 ** (attempt - 1));
  return full / 2 + (full / 2) * random;
}

/** Whether the subscriber's answer counts as received. */
export function isDelivered(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}
