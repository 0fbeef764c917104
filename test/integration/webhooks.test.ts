import { createHmac } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Runtime, startRuntime } from '../../local/runtime';
import { b64, pdf, png } from '../fixtures/images';
import type { operations } from '../../client';
import { client, defaultBody, typedClient } from './harness';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A subscriber on 127.0.0.1 that answers with the scripted statuses in turn (then the last one). */
function receiver(script: number[]) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const status = script.length > 1 ? script.shift()! : script[0]!;
      res.writeHead(status).end();
    });
  });
  return {
    received,
    script,
    start: () => new Promise<string>((ok) => server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`))),
    stop: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** What a subscriber does: recompute the HMAC over "<t>.<raw body>" and compare; reject stale timestamps. */
function verify(secret: string, header: string, body: string, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex') === parts.v1;
}

let runtime: Runtime;
let dataDir: string;
let api: ReturnType<typeof client>;
/** The typed client generated from the contract, for every well-formed request; `api` for malformed ones. */
let typed: ReturnType<typeof typedClient>;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'idv-hooks-'));
  runtime = await startRuntime({ host: '127.0.0.1', port: 0, dataDir, inMemory: true, extractor: 'sandbox', webhookRetry: { baseSeconds: 0.05, maxAgeSeconds: 1 } });
  api = client(runtime);
  typed = typedClient(runtime);
});
afterAll(async () => {
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

type WebhookBody = NonNullable<operations['createWebhook']['requestBody']>['content']['application/json'];
const inFlow = (flow: string) => ({ params: { path: { flow } } });
const onVerification = (flow: string, verificationId: string) => ({ params: { path: { flow, verificationId } } });
const onWebhook = (flow: string, webhookId: string) => ({ params: { path: { flow, webhookId } } });
const action = { comment: 'ok', email: 'r@example.com' };

async function subscribe(url: string, events: WebhookBody['events'], flow = 'photo-id', options: Pick<WebhookBody, 'format' | 'payload'> = {}) {
  const res = await typed.POST('/api/v1/{flow}/webhooks', { ...inFlow(flow), body: { url, events, ...options } });
  expect(res.response.status).toBe(201);
  return res.data!.data;
}

async function unsubscribe(flow: string, webhookId: string): Promise<void> {
  expect((await typed.DELETE('/api/v1/{flow}/webhooks/{webhookId}', onWebhook(flow, webhookId))).response.status).toBe(204);
}

async function verification(flow = 'photo-id'): Promise<string> {
  const body = flow === 'default' ? defaultBody() : { person: { first_name: 'Ada', last_name: 'Lovelace' } };
  return (await typed.POST('/api/v1/{flow}/verifications', { ...inFlow(flow), body })).data!.data.id;
}

const deliveries = async (flow: string, webhookId: string) => (await typed.GET('/api/v1/{flow}/webhooks/{webhookId}/deliveries', onWebhook(flow, webhookId))).data!.data;

describe('webhook subscriptions', () => {
  it('creates (secret shown once), lists without secret, deletes', async () => {
    const res = await typed.POST('/api/v1/{flow}/webhooks', { ...inFlow('default'), body: { url: 'http://127.0.0.1:9/x', events: ['VerificationFinished', 'VerificationFinished'] } });
    expect(res.response.status).toBe(201);
    expect(res.data!.data).toEqual({ id: expect.stringMatching(/^whk_/), url: 'http://127.0.0.1:9/x', events: ['VerificationFinished'], format: 'idv', payload: 'thin', secret: expect.stringMatching(/^whsec_/), created_at: expect.any(String) });
    const list = await typed.GET('/api/v1/{flow}/webhooks', inFlow('default'));
    expect(list.data!.data).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);
    await unsubscribe('default', res.data!.data.id);
    expect((await typed.DELETE('/api/v1/{flow}/webhooks/{webhookId}', onWebhook('default', res.data!.data.id))).response.status).toBe(404);
    expect((await typed.GET('/api/v1/{flow}/webhooks', inFlow('default'))).data!.data).toEqual([]);
  });

  it('validates the body and the flow', async () => {
    const bad = await api('POST', '/api/v1/default/webhooks', { url: 'ftp://x', events: ['Nope'] });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['events.0', 'url']);
    expect((await api('POST', '/api/v1/default/webhooks', { url: 'https://a.example', events: [] })).status).toBe(422);
    expect((await api('POST', '/api/v1/nope/webhooks', { url: 'https://a.example', events: ['VerificationFinished'] })).status).toBe(404);
    expect((await api('GET', '/api/v1/default/webhooks', undefined, { token: null })).status).toBe(401);
  });
});

describe('webhook delivery', () => {
  it('delivers approve, reject and cancel as signed POSTs', async () => {
    const sub = receiver([200]);
    const url = await sub.start();
    const hook = await subscribe(url, ['VerificationFinished', 'VerificationCanceled']);
    const [a, b, c] = [await verification(), await verification(), await verification()];
    await typed.PUT('/api/v1/{flow}/verifications/{verificationId}/approve', { ...onVerification('photo-id', a), body: action });
    await typed.PUT('/api/v1/{flow}/verifications/{verificationId}/reject', { ...onVerification('photo-id', b), body: action });
    await typed.PUT('/api/v1/{flow}/verifications/{verificationId}/cancel', { ...onVerification('photo-id', c), body: action });
    await runtime.idle();
    await sub.stop();
    expect(sub.received).toHaveLength(3);
    const bodies = sub.received.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => [b.type, b.data.verification.id, b.data.verification.status_label]).sort()).toEqual(
      [
        ['VerificationCanceled', c, 'Canceled'],
        ['VerificationFinished', a, 'Approved'],
        ['VerificationFinished', b, 'Rejected'],
      ].sort(),
    );
    for (const r of sub.received) {
      expect(verify(hook.secret, String(r.headers['x-webhook-signature']), r.body)).toBe(true);
      expect(verify('whsec_wrong', String(r.headers['x-webhook-signature']), r.body)).toBe(false);
      expect(r.headers['x-webhook-id']).toBe(JSON.parse(r.body).id);
      expect(r.headers['content-type']).toBe('application/json');
    }
    // No access-granting links in event payloads.
    expect(bodies[0].data.verification).not.toHaveProperty('url');
    expect(JSON.stringify(bodies)).not.toContain('X-Amz-Signature');
    await unsubscribe('photo-id', hook.id);
  });

  it('delivers a final status set through Update Verification as Approve, Reject and Cancel do', async () => {
    const sub = receiver([200]);
    const hook = await subscribe(await sub.start(), ['VerificationFinished', 'VerificationCanceled']);
    const [a, b, c] = [await verification(), await verification(), await verification()];
    for (const [id, status] of [[a, 3], [b, 4], [c, 7]] as const) {
      const res = await api('PATCH', `/api/v1/photo-id/verifications/${id}`, { status, ...action });
      expect(res.status).toBe(200);
    }
    // Setting the status it already has is refused, as Approve refuses an approved one: no second event.
    const again = await api('PATCH', `/api/v1/photo-id/verifications/${a}`, { status: 3, ...action });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'Verification is already Approved' });
    await runtime.idle();
    await sub.stop();
    const bodies = sub.received.map((r) => JSON.parse(r.body));
    expect(bodies.map((e) => [e.type, e.data.verification.id, e.data.verification.status_label]).sort()).toEqual(
      [
        ['VerificationCanceled', c, 'Canceled'],
        ['VerificationFinished', a, 'Approved'],
        ['VerificationFinished', b, 'Rejected'],
      ].sort(),
    );
    await unsubscribe('photo-id', hook.id);
  });

  it('retries a failing subscriber and delivers the event exactly once', async () => {
    const sub = receiver([500, 503, 204]);
    const hook = await subscribe(await sub.start(), ['VerificationFinished']);
    const v = await verification();
    await typed.PUT('/api/v1/{flow}/verifications/{verificationId}/approve', { ...onVerification('photo-id', v), body: action });
    await runtime.idle();
    await sub.stop();
    expect(sub.received).toHaveLength(3);
    expect(new Set(sub.received.map((r) => r.headers['x-webhook-id'])).size).toBe(1);
    const mine = (await deliveries('photo-id', hook.id)).find((d) => d.event_id === sub.received[0]!.headers['x-webhook-id'])!;
    expect(mine.status).toBe('delivered');
    expect(mine.attempts.map((a) => a.status_code)).toEqual([500, 503, 204]);
    await unsubscribe('photo-id', hook.id);
  });

  it('ends in the dead-letter queue when the subscriber always fails', async () => {
    const sub = receiver([500]);
    const hook = await subscribe(await sub.start(), ['VerificationCanceled'], 'default');
    const v = await verification('default');
    await typed.PUT('/api/v1/{flow}/verifications/{verificationId}/cancel', { ...onVerification('default', v), body: action });
    await runtime.idle();
    await sub.stop();
    expect(sub.received.length).toBeGreaterThanOrEqual(3);
    const [delivery] = await deliveries('default', hook.id);
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempts).toHaveLength(sub.received.length);
    expect(runtime.deliveries.deadLetters).toEqual([expect.objectContaining({ webhookId: hook.id, deliveryId: delivery!.id })]);
    await unsubscribe('default', hook.id);
  });

  it('sends VerificationFinished when automatic processing approves, and DocumentUploaded on upload', async () => {
    const sub = receiver([200]);
    await subscribe(await sub.start(), ['VerificationFinished', 'DocumentUploaded'], 'default', { payload: 'full' });
    const v = await verification('default');
    const photo = { person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' }, document: { number: 'P123', expiration_date: '2031-01-01' } };
    await typed.POST('/api/v1/{flow}/documents', { ...inFlow('default'), body: { verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(8, 8, 1, photo)) } } });
    await typed.POST('/api/v1/{flow}/documents', {
      ...inFlow('default'),
      body: {
        verification: v,
        document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(pdf({ person: { full_name: 'Ada Lovelace' }, address: { full: '1 Main St Austin TX 78701', country: 'USA' } })) },
      },
    });
    await typed.PUT('/api/v1/{flow}/verifications/{verificationId}/submit', onVerification('default', v));
    await runtime.idle();
    await sub.stop();
    const types = sub.received.map((r) => JSON.parse(r.body)).filter((b) => (b.data.verification?.id ?? b.data.verification_id) === v).map((b) => b.type);
    expect(types.sort()).toEqual(['DocumentUploaded', 'DocumentUploaded', 'VerificationFinished']);
    const finished = sub.received.map((r) => JSON.parse(r.body)).find((b) => b.type === 'VerificationFinished' && b.data.verification.id === v);
    expect(finished.data.verification.status_label).toBe('Approved');
    expect(finished.data.verification.history[0]).toMatchObject({ user: 'system', to_status: 'Approved' });
  });

  it('signs the Standard Webhooks way when asked, verified by the standardwebhooks library; the idv way verified by Stripe\'s own verifier', async () => {
    const sub = receiver([200]);
    const url = await sub.start();
    const standard = await subscribe(url, ['VerificationFinished'], 'photo-id', { format: 'standard-webhooks' });
    const idv = await subscribe(url, ['VerificationFinished']);
    await typed.PUT('/api/v1/{flow}/verifications/{verificationId}/approve', { ...onVerification('photo-id', await verification()), body: action });
    await runtime.idle();
    await sub.stop();
    const std = sub.received.find((r) => r.headers['webhook-signature'] !== undefined)!;
    const verified = new StandardWebhook(standard.secret).verify(std.body, { 'webhook-id': String(std.headers['webhook-id']), 'webhook-timestamp': String(std.headers['webhook-timestamp']), 'webhook-signature': String(std.headers['webhook-signature']) });
    expect(verified).toMatchObject({ type: 'VerificationFinished' });
    expect(() => new StandardWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(std.body, std.headers as Record<string, string>)).toThrow();
    const ours = sub.received.find((r) => r.headers['x-webhook-signature'] !== undefined)!;
    const stripe = new Stripe('sk_test_unused');
    expect(stripe.webhooks.constructEvent(ours.body, String(ours.headers['x-webhook-signature']), idv.secret)).toMatchObject({ type: 'VerificationFinished' });
    expect(() => stripe.webhooks.constructEvent(ours.body, String(ours.headers['x-webhook-signature']), 'whsec_wrong')).toThrow();
    // Thin by default: no personal data in either delivery.
    for (const r of sub.received) expect(r.body).not.toContain('Lovelace');
    await unsubscribe('photo-id', standard.id);
    await unsubscribe('photo-id', idv.id);
  });

  it('sends a failed delivery again on request, recorded as a new attempt', async () => {
    const sub = receiver([500]);
    const url = await sub.start();
    const hook = await subscribe(url, ['VerificationCanceled']);
    await typed.PUT('/api/v1/{flow}/verifications/{verificationId}/cancel', { ...onVerification('photo-id', await verification()), body: action });
    await runtime.idle();
    const [failed] = await deliveries('photo-id', hook.id);
    expect(failed!.status).toBe('failed');
    sub.script.splice(0, sub.script.length, 204);
    const retry = (deliveryId: string) => typed.POST('/api/v1/{flow}/webhooks/{webhookId}/deliveries/{deliveryId}/retry', { params: { path: { flow: 'photo-id', webhookId: hook.id, deliveryId } } });
    const retried = await retry(failed!.id);
    expect(retried.response.status).toBe(200);
    expect(retried.data!.data).toMatchObject({ id: failed!.id, status: 'delivered' });
    expect(retried.data!.data.attempts).toHaveLength(failed!.attempts.length + 1);
    expect(sub.received.at(-1)!.body).toBe(sub.received[0]!.body);
    expect((await retry('dlv_nope')).response.status).toBe(404);
    await sub.stop();
    await unsubscribe('photo-id', hook.id);
  });

  it('publishes again an event committed but never published (the outbox job)', async () => {
    const { PutCommand, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
    const { outboxToItem } = await import('../../src/adapters/dynamodb/mappers');
    // Nothing is left in the outbox by the requests above.
    const left = await runtime.doc.send(new QueryCommand({ TableName: 'idv-local', IndexName: 'GSI3', KeyConditionExpression: 'GSI3PK = :pk', ExpressionAttributeValues: { ':pk': 'OUTBOX' } }));
    expect(left.Items).toEqual([]);
    const sub = receiver([200]);
    const hook = await subscribe(await sub.start(), ['VerificationCanceled']);
    // As if the process died between the commit and the publish.
    const event = { type: 'VerificationCanceled' as const, detail: { id: 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV', type: 'VerificationCanceled' as const, created_at: '2026-01-01T00:00:00.000000Z', flow: 'photo-id', data: { verification: { id: 'ver_crashed' } } } };
    await runtime.doc.send(new PutCommand({ TableName: 'idv-local', Item: outboxToItem(event) }));
    expect(await runtime.publishPendingNow()).toEqual({ published: 1 });
    expect(await runtime.publishPendingNow()).toEqual({ published: 0 });
    await runtime.idle();
    await sub.stop();
    expect(sub.received.map((r) => r.headers['x-webhook-id'])).toEqual([event.detail.id]);
    await unsubscribe('photo-id', hook.id);
  });
});
