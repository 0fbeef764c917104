import { cancelVerification } from '../../../src/app/cancel-verification';
import { createDocument } from '../../../src/app/create-document';
import { createVerification } from '../../../src/app/create-verification';
import { publishPending } from '../../../src/app/events';
import { submitVerification } from '../../../src/app/submit-verification';
import { createWebhook, deliverWebhook, dispatchEvent } from '../../../src/app/webhooks';
import { extractDocument } from '../../../src/app/workflow/extract-document';
import { failRun, finishRun } from '../../../src/app/workflow/finish-run';
import { preExtract } from '../../../src/app/workflow/pre-extract';
import { startRun } from '../../../src/app/workflow/start-run';
import { sweepRuns } from '../../../src/app/workflow/sweep-runs';
import type { EventDetail } from '../../../src/events/events';
import { METRIC } from '../../../src/ports/metrics';
import { b64, png } from '../../fixtures/images';
import { type FixedClock, fakeDeps, REQ } from '../../fakes/in-memory';

const later = (clock: FixedClock, seconds: number) => {
  clock.value = new Date(Date.parse(clock.value) + seconds * 1000).toISOString();
};

async function withPhoto() {
  const f = fakeDeps();
  const v = await createVerification(f.deps, REQ, 'photo-id', { person: { first_name: 'Ada', last_name: 'Lovelace' } });
  const photo = png(4, 4, 1, { person: { given_names: 'Ada', surname: 'Lovelace' }, document: { expiration_date: '2031-01-01' } });
  await createDocument(f.deps, 'photo-id', { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'FRA', front_side_data: b64(photo) } });
  return { ...f, id: v.id };
}

describe('business metrics', () => {
  it('counts each verification created, without dimensions that could hold personal data', async () => {
    const f = fakeDeps();
    await createVerification(f.deps, REQ, 'photo-id', { person: { first_name: 'Ada', last_name: 'Lovelace' } });
    await createVerification(f.deps, REQ, 'photo-id', { person: { first_name: 'Grace', last_name: 'Hopper' } });
    expect(f.metrics.recorded).toEqual([
      { name: METRIC.verificationsCreated, value: 1, unit: 'Count', dimensions: {} },
      { name: METRIC.verificationsCreated, value: 1, unit: 'Count', dimensions: {} },
    ]);
  });

  it('counts automatic decisions by outcome, once per run (a stale retry records nothing)', async () => {
    const a = await withPhoto();
    await submitVerification(a.deps, REQ, 'photo-id', a.id);
    const [item] = (await startRun(a.deps, { verificationId: a.id, run: 1 })).items;
    await extractDocument(a.deps, item!);
    const { evaluateDocument } = await import('../../../src/app/workflow/evaluate-document');
    await evaluateDocument(a.deps, item!);
    await finishRun(a.deps, { verificationId: a.id, run: 1 });
    await finishRun(a.deps, { verificationId: a.id, run: 1 });
    expect(a.metrics.recorded.filter((m) => m.name === METRIC.verificationsDecided)).toEqual([{ name: METRIC.verificationsDecided, value: 1, unit: 'Count', dimensions: { outcome: 'Approved' } }]);

    const b = await withPhoto();
    await submitVerification(b.deps, REQ, 'photo-id', b.id);
    await failRun(b.deps, { verificationId: b.id, run: 1, error: { Error: 'States.Timeout' } });
    expect(b.metrics.recorded.filter((m) => m.name === METRIC.verificationsDecided).map((m) => m.dimensions)).toEqual([{ outcome: 'Double Check' }]);
  });

  it('records extraction latency and mean confidence per extractor call, by extractor and context; a cache hit is no extraction', async () => {
    const f = await withPhoto();
    const [uploaded] = f.events.published;
    await preExtract(f.deps, uploaded!.detail);
    const extraction = f.metrics.recorded.filter((m) => m.name === METRIC.extractionLatency || m.name === METRIC.extractionConfidence);
    expect(extraction.map((m) => [m.name, m.unit, m.dimensions])).toEqual([
      [METRIC.extractionLatency, 'Milliseconds', { extractor: 'sandbox', context: 'PHOTO_ID' }],
      [METRIC.extractionConfidence, 'Percent', { extractor: 'sandbox', context: 'PHOTO_ID' }],
    ]);
    const [confidence] = f.metrics.values(METRIC.extractionConfidence);
    expect(confidence).toBeGreaterThan(0);
    expect(confidence).toBeLessThanOrEqual(100);

    // The run reuses the early extraction: nothing more recorded.
    await submitVerification(f.deps, REQ, 'photo-id', f.id);
    const [item] = (await startRun(f.deps, { verificationId: f.id, run: 1 })).items;
    await extractDocument(f.deps, item!);
    expect(f.metrics.values(METRIC.extractionLatency)).toHaveLength(1);
  });

  it('counts webhook delivery attempts by outcome: delivered, retrying, failed; a skipped job is no attempt', async () => {
    const f = fakeDeps();
    await createWebhook(f.deps, 'default', { url: 'https://example.com/h', events: ['VerificationFinished'] });
    const detail: EventDetail = { id: 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV', type: 'VerificationFinished', created_at: '2026-01-02T03:04:05.123456Z', flow: 'default', data: { verification: { id: 'ver_1' } } };
    await dispatchEvent(f.deps, detail);
    const job = f.queue.queued[0]!.job;
    f.sender.script = [500];
    await deliverWebhook(f.deps, job, () => 1);
    await deliverWebhook({ ...f.deps, webhookRetry: { ...f.deps.webhookRetry, maxAgeSeconds: 10 } }, job, () => 1);
    await deliverWebhook(f.deps, job);
    expect(f.metrics.recorded.map((m) => [m.name, m.dimensions.outcome])).toEqual([
      [METRIC.webhookDeliveries, 'retrying'],
      [METRIC.webhookDeliveries, 'failed'],
    ]);

    const g = fakeDeps();
    await createWebhook(g.deps, 'default', { url: 'https://example.com/h', events: ['VerificationFinished'] });
    await dispatchEvent(g.deps, detail);
    await deliverWebhook(g.deps, g.queue.queued[0]!.job);
    expect(g.metrics.recorded.map((m) => m.dimensions.outcome)).toEqual(['delivered']);
  });

  it('records the age of the oldest unpublished outbox event, even when publishing fails, and 0 when the outbox is empty', async () => {
    const f = fakeDeps();
    const v = await createVerification(f.deps, REQ, 'photo-id', { person: { first_name: 'Grace', last_name: 'Hopper' } });
    const events = f.deps.events;
    f.deps.events = {
      publish: async () => {
        throw new Error('EventBridge unavailable');
      },
    };
    await cancelVerification(f.deps, REQ, 'photo-id', v.id, { comment: 'c', email: 'e@example.com' });
    f.metrics.recorded.length = 0;
    const clock = f.deps.clock as FixedClock;
    later(clock, 600);
    await expect(publishPending(f.deps)).rejects.toThrow('EventBridge unavailable');
    expect(f.metrics.values(METRIC.outboxOldestAge)).toEqual([600]);
    f.deps.events = events;
    later(clock, 60);
    expect(await publishPending(f.deps)).toEqual({ published: 1 });
    expect(await publishPending(f.deps)).toEqual({ published: 0 });
    expect(f.metrics.values(METRIC.outboxOldestAge)).toEqual([600, 660, 0]);
  });

  it('records how long the oldest run the sweeper looked at has been Submitted, and 0 once none is', async () => {
    const f = await withPhoto();
    await submitVerification(f.deps, REQ, 'photo-id', f.id);
    const clock = f.deps.clock as FixedClock;
    f.workflow.states.set(`${f.id}#1#0`, 'running');
    const policy = { checkAfterSeconds: 60, maxRunSeconds: 3600, maxAttempts: 3 };
    later(clock, 61);
    await sweepRuns(f.deps, policy);
    later(clock, 900);
    await sweepRuns(f.deps, policy);
    await failRun(f.deps, { verificationId: f.id, run: 1, error: { Error: 'X' } });
    later(clock, 61);
    await sweepRuns(f.deps, policy);
    expect(f.metrics.values(METRIC.submittedOldestAge)).toEqual([61, 961, 0]);
  });
});
