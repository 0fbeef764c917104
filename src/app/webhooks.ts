import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { FieldErrorCollector, NotFoundError } from '../domain/errors';
import { backoffSeconds, type Delivery, isDelivered, type Webhook, type WebhookFormat, type WebhookPayload } from '../domain/webhooks';
import type { EventDetail, EventType } from '../events/events';
import type { DeliveryJob } from '../ports/webhooks';
import type { Deps } from './deps';
import { METRIC } from '../ports/metrics';
import { requireFlow } from './load';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` (docs/how-to/receive-webhooks.md shows how to verify it). */
export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * What a subscriber does with a delivery: true when `header` signs `rawBody` with `secret` and its
 * time is within `toleranceSeconds` of `nowSeconds` (the README's verification snippet, as code).
 */
export function verifySignature(secret: string, header: string, rawBody: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds || typeof parts.v1 !== 'string') return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex'));
  const given = Buffer.from(parts.v1);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Standard Webhooks (https://www.standardwebhooks.com): `v1,<base64 HMAC-SHA256(key, "<id>.<t>.<body>")>`,
 * the key being the base64 after `whsec_`.
 */
export function standardSignature(secret: string, id: string, unixSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${unixSeconds}.${body}`).digest('base64')}`;
}

/** The headers of one delivery, signed in the subscription's format. */
export function deliveryHeaders(webhook: Pick<Webhook, 'format' | 'secret'>, delivery: Pick<Delivery, 'id' | 'eventId' | 'body'>, unixSeconds: number): Record<string, string> {
  const common = { 'Content-Type': 'application/json', 'User-Agent': 'idv-webhooks/1' };
  if (webhook.format === 'standard-webhooks') {
    return { ...common, 'webhook-id': delivery.id, 'webhook-timestamp': String(unixSeconds), 'webhook-signature': standardSignature(webhook.secret, delivery.id, unixSeconds, delivery.body) };
  }
  return { ...common, 'X-Webhook-Id': delivery.eventId, 'X-Webhook-Delivery': delivery.id, 'X-Webhook-Signature': signatureHeader(webhook.secret, unixSeconds, delivery.body) };
}

/** A new signing secret: `whsec_` and 32 random bytes, in the base64 Standard Webhooks decodes (URL-safe base64 for the idv format, as before). */
function newSecret(format: WebhookFormat): string {
  return `whsec_${randomBytes(32).toString(format === 'standard-webhooks' ? 'base64' : 'base64url')}`;
}

function presentWebhook(w: Webhook, withSecret: boolean) {
  return { id: w.id, url: w.url, events: w.events, format: w.format, payload: w.payload, ...(withSecret && { secret: w.secret }), created_at: w.createdAt };
}

export interface CreateWebhookInput {
  url: string;
  events: EventType[];
  format?: WebhookFormat;
  payload?: WebhookPayload;
}

/** Registers a subscription for a flow; the signing secret is returned this once. */
export async function createWebhook(deps: Pick<Deps, 'flows' | 'webhooks' | 'webhookPolicy' | 'ids' | 'clock'>, flowPath: string, input: CreateWebhookInput) {
  const flow = await requireFlow(deps, flowPath);
  const errors = new FieldErrorCollector();
  const url = new URL(input.url);
  if (deps.webhookPolicy.requireHttps && url.protocol !== 'https:') errors.add('url', 'must be an https URL');
  if (url.username || url.password) errors.add('url', 'must not carry credentials');
  errors.throwIfAny();
  const webhook: Webhook = {
    id: deps.ids.next('whk'),
    flow: flow.path,
    url: url.toString(),
    events: [...new Set(input.events)],
    secret: newSecret(input.format ?? 'idv'),
    format: input.format ?? 'idv',
    // Thin unless asked: a receiver that logs what it gets then holds no personal data (docs/how-to/receive-webhooks.md).
    payload: input.payload ?? 'thin',
    createdAt: deps.clock.now(),
  };
  await deps.webhooks.create(webhook);
  return presentWebhook(webhook, true);
}

/** A repeat of a create whose subscription committed but whose response was lost: the subscription with its secret, as Create shows it. */
export async function presentCreatedWebhook(deps: Pick<Deps, 'flows' | 'webhooks'>, flowPath: string, id: string) {
  const flow = await requireFlow(deps, flowPath);
  const webhook = await deps.webhooks.get(flow.path, id);
  if (!webhook) throw new NotFoundError('Webhook not found');
  return presentWebhook(webhook, true);
}

export async function listWebhooks(deps: Pick<Deps, 'flows' | 'webhooks'>, flowPath: string) {
  const flow = await requireFlow(deps, flowPath);
  return (await deps.webhooks.list(flow.path)).map((w) => presentWebhook(w, false));
}

export async function deleteWebhook(deps: Pick<Deps, 'flows' | 'webhooks'>, flowPath: string, id: string): Promise<void> {
  const flow = await requireFlow(deps, flowPath);
  if (!(await deps.webhooks.delete(flow.path, id))) throw new NotFoundError('Webhook not found');
}

/** The last deliveries of a subscription with every attempt: how a client sees delivery status. */
export async function listDeliveries(deps: Pick<Deps, 'flows' | 'webhooks'>, flowPath: string, id: string) {
  const flow = await requireFlow(deps, flowPath);
  if (!(await deps.webhooks.get(flow.path, id))) throw new NotFoundError('Webhook not found');
  return (await deps.webhooks.listDeliveries(id, 50)).map(presentDelivery);
}

function presentDelivery(d: Delivery) {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

/**
 * Sends a delivery again now, on request (after a receiver's outage was fixed, or to replay one):
 * the same body, signed afresh, recorded as a new attempt. A 2xx makes it delivered; otherwise its
 * status is unchanged (a failed delivery stays failed, a pending one keeps its scheduled retry).
 */
export async function retryDelivery(deps: Pick<Deps, 'flows' | 'webhooks' | 'webhookSender' | 'clock'>, flowPath: string, webhookId: string, id: string) {
  const flow = await requireFlow(deps, flowPath);
  const webhook = await deps.webhooks.get(flow.path, webhookId);
  if (!webhook) throw new NotFoundError('Webhook not found');
  const delivery = await deps.webhooks.getDelivery(webhookId, id);
  if (!delivery) throw new NotFoundError('Delivery not found');
  const sent = await attempt(deps, webhook, delivery);
  const next: Delivery = isDelivered(sent.statusCode) ? { ...sent.delivery, status: 'delivered', nextAttemptAt: null } : sent.delivery;
  await deps.webhooks.saveDelivery(next);
  return presentDelivery(next);
}

/** A repeat of a manual retry whose attempt was recorded but whose response was lost: the delivery as it is now. */
export async function presentRetried(deps: Pick<Deps, 'flows' | 'webhooks'>, flowPath: string, webhookId: string, id: string) {
  const flow = await requireFlow(deps, flowPath);
  if (!(await deps.webhooks.get(flow.path, webhookId))) throw new NotFoundError('Webhook not found');
  const delivery = await deps.webhooks.getDelivery(webhookId, id);
  if (!delivery) throw new NotFoundError('Delivery not found');
  return presentDelivery(delivery);
}

/** One signed POST of a delivery's body, and the delivery with that attempt recorded (not yet saved). */
async function attempt(deps: Pick<Deps, 'webhookSender' | 'clock'>, webhook: Webhook, delivery: Delivery): Promise<{ statusCode: number | null; delivery: Delivery }> {
  const now = deps.clock.now();
  const result = await deps.webhookSender.send(webhook.url, deliveryHeaders(webhook, delivery, Math.floor(Date.parse(now) / 1000)), delivery.body);
  const attempts = [...delivery.attempts, { at: now, status_code: result.statusCode, error: result.error, duration_ms: result.durationMs }];
  return { statusCode: result.statusCode, delivery: { ...delivery, attempts, updatedAt: now, version: delivery.version + 1 } };
}

/** Delivery ids follow the event's time order and are the same for a redelivered event (idempotent fan-out). */
export function deliveryId(eventId: string, webhookId: string): string {
  return `dlv_${eventId.replace(/^evt_/, '')}${createHash('sha256').update(webhookId).digest('hex').slice(0, 8).toUpperCase()}`;
}

/** Keys of a thin payload's verification and document: ids and status, nothing personal. */
const THIN_KEYS = ['id', 'verification_id', 'status', 'status_label', 'flow', 'updated_at'];
const pick = (o: unknown): Record<string, unknown> => Object.fromEntries(Object.entries(o as Record<string, unknown>).filter(([k]) => THIN_KEYS.includes(k)));

/**
 * What a subscription receives of an event: all of it (`full`), or its ids and statuses (`thin`). A
 * ScreeningHit's `entry` is kept thin: it is the sanctions list's public data (without it a thin hit
 * would say only which verification), while its reasons, read from the person, are not.
 */
export function deliveryBody(detail: EventDetail, payload: WebhookPayload): string {
  const { verification, document, verification_id, entry } = detail.data as { verification?: unknown; document?: unknown; verification_id?: string; entry?: unknown };
  const data =
    payload === 'full'
      ? detail.data
      : {
          ...(verification !== undefined && { verification: pick(verification) }),
          ...(verification_id !== undefined && { verification_id }),
          ...(document !== undefined && { document: pick(document) }),
          ...(entry !== undefined && { entry }),
        };
  return JSON.stringify({ id: detail.id, type: detail.type, created_at: detail.created_at, data });
}

/** Fan-out of one event: a delivery record and a queued job for every subscription of its flow and type. */
export async function dispatchEvent(deps: Pick<Deps, 'webhooks' | 'deliveries' | 'clock' | 'ids'>, detail: EventDetail): Promise<number> {
  const subscribers = (await deps.webhooks.list(detail.flow)).filter((w) => w.events.includes(detail.type));
  let queued = 0;
  for (const w of subscribers) {
    const now = deps.clock.now();
    const delivery: Delivery = {
      id: deliveryId(detail.id, w.id),
      webhookId: w.id,
      flow: w.flow,
      eventId: detail.id,
      eventType: detail.type,
      body: deliveryBody(detail, w.payload),
      status: 'pending',
      attempts: [],
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    if (await deps.webhooks.createDelivery(delivery)) {
      await deps.deliveries.enqueue({ flow: w.flow, webhookId: w.id, deliveryId: delivery.id }, 0);
      queued++;
    }
  }
  return queued;
}

/**
 * One attempt: sign and POST the stored body; 2xx → delivered; otherwise retry with backoff until
 * the policy's age limit, then the dead-letter queue. Every attempt is recorded on the delivery.
 * A concurrent attempt on the same delivery surfaces as ConflictError (the queue redelivers, and the
 * delivery is then no longer pending); subscribers deduplicate on X-Webhook-Id.
 */
export async function deliverWebhook(deps: Pick<Deps, 'webhooks' | 'deliveries' | 'clock' | 'webhookSender' | 'webhookRetry' | 'metrics'>, job: DeliveryJob, random: () => number = Math.random): Promise<Delivery['status'] | 'skipped'> {
  const outcome = await deliverOnce(deps, job, random);
  if (outcome !== 'skipped') deps.metrics.record(METRIC.webhookDeliveries, 1, 'Count', { outcome: outcome === 'pending' ? 'retrying' : outcome });
  return outcome;
}

async function deliverOnce(deps: Pick<Deps, 'webhooks' | 'deliveries' | 'clock' | 'webhookSender' | 'webhookRetry'>, job: DeliveryJob, random: () => number): Promise<Delivery['status'] | 'skipped'> {
  const delivery = await deps.webhooks.getDelivery(job.webhookId, job.deliveryId);
  if (!delivery || delivery.status !== 'pending') return 'skipped';
  const webhook = await deps.webhooks.get(job.flow, job.webhookId);
  if (!webhook) {
    await deps.webhooks.saveDelivery({ ...delivery, status: 'failed', nextAttemptAt: null, updatedAt: deps.clock.now(), version: delivery.version + 1 });
    return 'failed';
  }
  const sent = await attempt(deps, webhook, delivery);
  const base = sent.delivery;
  const now = base.updatedAt;
  const attempts = base.attempts;
  if (isDelivered(sent.statusCode)) {
    await deps.webhooks.saveDelivery({ ...base, status: 'delivered', nextAttemptAt: null });
    return 'delivered';
  }
  const delay = backoffSeconds(deps.webhookRetry, attempts.length, random());
  const ageSeconds = (Date.parse(now) - Date.parse(delivery.createdAt)) / 1000;
  if (ageSeconds + delay > deps.webhookRetry.maxAgeSeconds) {
    await deps.webhooks.saveDelivery({ ...base, status: 'failed', nextAttemptAt: null });
    await deps.deliveries.deadLetter(job, `no 2xx after ${attempts.length} attempts`);
    return 'failed';
  }
  const next = new Date(Date.parse(now) + delay * 1000).toISOString();
  await deps.webhooks.saveDelivery({ ...base, nextAttemptAt: next });
  await deps.deliveries.enqueue(job, delay);
  return 'pending';
}
