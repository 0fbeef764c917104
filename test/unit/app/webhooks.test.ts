import { createHmac } from 'node:crypto';
import { createWebhook, deliverWebhook, deliveryId, dispatchEvent, signatureHeader } from '../../../src/app/webhooks';
import { ValidationError } from '../../../src/domain/errors';
import { backoffSeconds } from '../../../src/domain/webhooks';
import type { EventDetail } from '../../../src/events/events';
import { fakeDeps } from '../../fakes/in-memory';

const detail: EventDetail = { id: 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV', type: 'VerificationFinished', created_at: '2026-01-02T03:04:05.123456Z', flow: 'default', data: { verification: { id: 'ver_1' } } };

describe('webhook signatures and schedule', () => {
  it('signs "<t>.<body>" with HMAC-SHA256', () => {
    const expected = createHmac('sha256', 'whsec_x').update('1700000000.{"a":1}').digest('hex');
    expect(signatureHeader('whsec_x', 1700000000, '{"a":1}')).toBe(`t=1700000000,v1=${expected}`);
  });

  it('backs off exponentially with jitter, capped at 900 s', () => {
    const policy = { baseSeconds: 30, maxDelaySeconds: 900, maxAgeSeconds: 93600 };
    expect([1, 2, 3].map((n) => backoffSeconds(policy, n, 1))).toEqual([30, 60, 120]);
    expect(backoffSeconds(policy, 1, 0)).toBe(15);
    expect(backoffSeconds(policy, 20, 1)).toBe(900);
  });
});

describe('subscriptions', () => {
  it('requires https where the policy says so', async () => {
    const { deps } = fakeDeps();
    await expect(createWebhook(deps, 'default', { url: 'http://example.com/h', events: ['VerificationFinished'] })).rejects.toBeInstanceOf(ValidationError);
    await expect(createWebhook(deps, 'default', { url: 'https://u:p@example.com/h', events: ['VerificationFinished'] })).rejects.toBeInstanceOf(ValidationError);
    const ok = await createWebhook(deps, 'default', { url: 'https://example.com/h', events: ['VerificationFinished'] });
    expect(ok.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });
});

describe('dispatch and delivery', () => {
  async function subscribed() {
    const f = fakeDeps();
    const hook = await createWebhook(f.deps, 'default', { url: 'https://example.com/h', events: ['VerificationFinished'] });
    await createWebhook(f.deps, 'default', { url: 'https://example.com/other', events: ['VerificationCanceled'] });
    await createWebhook(f.deps, 'photo-id', { url: 'https://example.com/p', events: ['VerificationFinished'] });
    return { ...f, hook };
  }

  it('fans out only to the flow and event type subscribed, once per event even if redelivered', async () => {
    const { deps, queue, hook } = await subscribed();
    expect(await dispatchEvent(deps, detail)).toBe(1);
    expect(await dispatchEvent(deps, detail)).toBe(0);
    expect(queue.queued).toEqual([{ job: { flow: 'default', webhookId: hook.id, deliveryId: deliveryId(detail.id, hook.id) }, delaySeconds: 0 }]);
  });

  it('delivers with id and signature headers and records the attempt', async () => {
    const { deps, queue, sender, webhooks, hook } = await subscribed();
    await dispatchEvent(deps, detail);
    expect(await deliverWebhook(deps, queue.queued[0]!.job)).toBe('delivered');
    const [sent] = sender.sent;
    expect(JSON.parse(sent!.body)).toEqual({ id: detail.id, type: detail.type, created_at: detail.created_at, data: detail.data });
    expect(sent!.headers['X-Webhook-Id']).toBe(detail.id);
    const [, t] = /t=(\d+)/.exec(sent!.headers['X-Webhook-Signature']!)!;
    expect(sent!.headers['X-Webhook-Signature']).toBe(signatureHeader(hook.secret ?? '', Number(t), sent!.body));
    const stored = [...webhooks.deliveries.values()][0]!;
    expect(stored).toMatchObject({ status: 'delivered', attempts: [expect.objectContaining({ status_code: 200 })] });
    expect(await deliverWebhook(deps, queue.queued[0]!.job)).toBe('skipped');
  });

  it('reschedules failures with backoff and dead-letters after the age limit', async () => {
    const { deps, queue, sender } = await subscribed();
    sender.script = [500];
    await dispatchEvent(deps, detail);
    const job = queue.queued[0]!.job;
    expect(await deliverWebhook(deps, job, () => 1)).toBe('pending');
    expect(queue.queued[1]).toEqual({ job, delaySeconds: 30 });
    const late = { ...deps, webhookRetry: { ...deps.webhookRetry, maxAgeSeconds: 10 } };
    expect(await deliverWebhook(late, job, () => 1)).toBe('failed');
    expect(queue.dead).toEqual([{ job, reason: 'no 2xx after 2 attempts' }]);
  });

  it('fails the delivery of a deleted subscription without sending', async () => {
    const { deps, queue, sender, webhooks, hook } = await subscribed();
    await dispatchEvent(deps, detail);
    webhooks.hooks.delete(hook.id);
    expect(await deliverWebhook(deps, queue.queued[0]!.job)).toBe('failed');
    expect(sender.sent).toEqual([]);
  });
});

describe('event outbox', () => {
  it('commits the event with the change, removes it once published, and keeps it when publishing fails', async () => {
    const { createVerification } = await import('../../../src/app/create-verification');
    const { cancelVerification } = await import('../../../src/app/cancel-verification');
    const { publishPending } = await import('../../../src/app/events');
    const { REQ, FixedClock } = await import('../../fakes/in-memory');
    const f = fakeDeps();
    const a = await createVerification(f.deps, REQ, 'photo-id', { person: { first_name: 'A', last_name: 'B' } });
    await cancelVerification(f.deps, REQ, 'photo-id', a.id, { comment: 'c', email: 'e@example.com' });
    expect(f.events.published.map((e) => e.type)).toEqual(['VerificationCanceled']);
    expect(f.store.outboxRows.size).toBe(0);

    // EventBridge down: the request still succeeds and the event waits in the outbox.
    f.deps.events = {
      publish: async () => {
        throw new Error('EventBridge unavailable');
      },
    };
    const b = await createVerification(f.deps, REQ, 'photo-id', { person: { first_name: 'C', last_name: 'D' } });
    const res = await cancelVerification(f.deps, REQ, 'photo-id', b.id, { comment: 'c', email: 'e@example.com' });
    expect(res.status_label).toBe('Canceled');
    expect([...f.store.outboxRows.values()].map((e) => e.type)).toEqual(['VerificationCanceled']);

    // The outbox job publishes it once it is a minute old, then removes it.
    f.deps.events = f.events;
    (f.deps.clock as InstanceType<typeof FixedClock>).value = '2026-01-02T03:06:00.000000Z';
    expect(await publishPending(f.deps)).toEqual({ published: 1 });
    expect(f.events.published.map((e) => (e.detail.data.verification as { id: string }).id)).toEqual([a.id, b.id]);
    expect(f.store.outboxRows.size).toBe(0);
  });
});
