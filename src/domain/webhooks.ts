import type { EventType } from '../events/events';

/** A subscription of one flow's events. The secret signs deliveries; the API shows it only at creation. */
export interface Webhook {
  id: string;
  flow: string;
  url: string;
  events: EventType[];
  secret: string;
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
