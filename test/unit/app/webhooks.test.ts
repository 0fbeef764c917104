import { createHmac } from 'node:crypto';
import { createWebhook, deliverWebhook, deliveryBody, deliveryId, dispatchEvent, retryDelivery, signatureHeader, standardSignature } from '../../../src/app/webhooks';
import { NotFoundError } from '../../../src/domain/errors';
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

  it('signs Standard Webhooks "<id>.<t>.<body>" with the base64-decoded secret (the specification\'s test vector)', () => {
    expect(standardSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
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

describe('payloads', () => {
  const finished: EventDetail = {
    ...detail,
    data: { verification: { id: 'ver_1', status_label: 'Approved', flow: 'Default', updated_at: 'T', expected_data: { person: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1815-12-10' } }, documents: [{ id: 'doc_1' }] } },
  };

  it('sends ids and statuses only in a thin payload, and the whole verification in a full one', () => {
    const thin = JSON.parse(deliveryBody(finished, 'thin'));
    expect(thin).toEqual({ id: detail.id, type: detail.type, created_at: detail.created_at, data: { verification: { id: 'ver_1', status_label: 'Approved', flow: 'Default', updated_at: 'T' } } });
    expect(JSON.stringify(thin)).not.toContain('Lovelace');
    expect(JSON.parse(deliveryBody(finished, 'full')).data).toEqual(finished.data);
    const uploaded: EventDetail = { ...detail, type: 'DocumentUploaded', data: { verification_id: 'ver_1', document: { id: 'doc_1', status_label: 'Uploaded', extracted_data: [{ person: { surname: 'LOVELACE' } }] } } };
    expect(JSON.parse(deliveryBody(uploaded, 'thin')).data).toEqual({ verification_id: 'ver_1', document: { id: 'doc_1', status_label: 'Uploaded' } });
  });

  it('keeps the listed entry (public list data) in a thin ScreeningHit, and drops the reasons read from the person', () => {
    const entry = { list: 'un-sc', entry: '6908555', reference: 'QDi.001', name: 'Listed Person', programmes: ['UN 1267'] };
    const hit: EventDetail = { ...detail, type: 'ScreeningHit', data: { verification_id: 'ver_1', entry, score: 0.97, reasons: ['surname Lovelace matched'], snapshot: 'T' } };
    const thin = JSON.parse(deliveryBody(hit, 'thin')).data;
    expect(thin).toEqual({ verification_id: 'ver_1', entry });
    expect(JSON.stringify(thin)).not.toContain('Lovelace');
  });

  it('makes new subscriptions thin and idv-signed unless asked, and sends each subscription its own payload', async () => {
    const { deps, sender, queue } = fakeDeps();
    const thin = await createWebhook(deps, 'default', { url: 'https://example.com/thin', events: ['VerificationFinished'] });
    const full = await createWebhook(deps, 'default', { url: 'https://example.com/full', events: ['VerificationFinished'], payload: 'full', format: 'standard-webhooks' });
    expect([thin.format, thin.payload, full.format, full.payload]).toEqual(['idv', 'thin', 'standard-webhooks', 'full']);
    // Standard Webhooks secrets are standard base64 (the reference library cannot decode URL-safe base64).
    expect(full.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await dispatchEvent(deps, finished);
    for (const { job } of queue.queued) await deliverWebhook(deps, job);
    const byUrl = Object.fromEntries(sender.sent.map((s) => [s.url, s]));
    expect(byUrl['https://example.com/thin']!.body).not.toContain('Lovelace');
    expect(byUrl['https://example.com/full']!.body).toContain('Lovelace');
    const std = byUrl['https://example.com/full']!;
    expect(std.headers['X-Webhook-Signature']).toBeUndefined();
    expect(std.headers['webhook-signature']).toBe(standardSignature(full.secret ?? '', std.headers['webhook-id']!, Number(std.headers['webhook-timestamp']), std.body));
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

  it('sends a delivery again on request, recorded as a new attempt', async () => {
    const { deps, queue, sender, webhooks, hook } = await subscribed();
    sender.script = [500];
    await dispatchEvent(deps, detail);
    expect(await deliverWebhook(deps, queue.queued[0]!.job)).toBe('pending');
    const id = queue.queued[0]!.job.deliveryId;
    sender.script = [200];
    const retried = await retryDelivery(deps, 'default', hook.id, id);
    expect(retried).toMatchObject({ id, status: 'delivered', next_attempt_at: null, attempts: [expect.objectContaining({ status_code: 500 }), expect.objectContaining({ status_code: 200 })] });
    expect(sender.sent.map((s) => s.body)).toEqual([sender.sent[0]!.body, sender.sent[0]!.body]);
    expect([...webhooks.deliveries.values()][0]).toMatchObject({ status: 'delivered' });
    await expect(retryDelivery(deps, 'default', hook.id, 'dlv_nope')).rejects.toBeInstanceOf(NotFoundError);
    await expect(retryDelivery(deps, 'default', 'whk_nope', id)).rejects.toBeInstanceOf(NotFoundError);
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
