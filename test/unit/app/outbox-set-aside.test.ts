import { publishCommitted, publishPending } from '../../../src/app/events';
import type { DomainEvent } from '../../../src/events/events';
import type { EventPublisher } from '../../../src/ports/event-publisher';
import { METRIC, type BusinessMetrics, type MetricName } from '../../../src/ports/metrics';
import { type Outbox, type PublishFailure, type SetAsideEvent, UnpublishedEventsError } from '../../../src/ports/outbox';

const NOW = '2026-01-02T03:04:05.000Z';
const event = (id: string): DomainEvent => ({ type: 'VerificationCanceled', detail: { id, type: 'VerificationCanceled', created_at: '2026-01-02T02:00:00.000Z', flow: 'default', data: {} } });

/** An outbox that keeps its rows and what it set aside in memory. */
class MemoryOutbox implements Outbox {
  rows = new Map<string, DomainEvent>();
  dead: { item: SetAsideEvent; at: string }[] = [];
  reads = 0;
  constructor(events: DomainEvent[]) {
    for (const e of events) this.rows.set(e.detail.id, e);
  }
  async pending(before: string, limit: number) {
    this.reads++;
    return [...this.rows.values()].filter((e) => e.detail.created_at < before).slice(0, limit);
  }
  async remove(ids: string[]) {
    for (const id of ids) this.rows.delete(id);
  }
  async setAside(items: readonly SetAsideEvent[], at: string) {
    for (const item of items) {
      this.rows.delete(item.event.detail.id);
      this.dead.push({ item, at });
    }
  }
  async dueRuns() {
    return [];
  }
  async updateRun() {
    return true;
  }
  async removeRun() {}
}

/** A publisher that refuses the named events with the given failure and publishes the others. */
class RefusingPublisher implements EventPublisher {
  published: string[] = [];
  constructor(private readonly refuse: Record<string, Omit<PublishFailure, 'eventId'>>) {}
  async publish(events: DomainEvent[]) {
    const failures = events.filter((e) => this.refuse[e.detail.id]).map((e) => ({ eventId: e.detail.id, ...this.refuse[e.detail.id]! }));
    this.published.push(...events.filter((e) => !this.refuse[e.detail.id]).map((e) => e.detail.id));
    if (failures.length > 0) throw new UnpublishedEventsError(failures);
  }
}

const metrics = () => {
  const recorded: { name: MetricName; value: number }[] = [];
  const port: BusinessMetrics = { record: (name, value) => void recorded.push({ name, value }) };
  return { port, values: (name: MetricName) => recorded.filter((r) => r.name === name).map((r) => r.value) };
};
const TOO_LARGE = { code: 'ValidationException', message: 'Total size of the entries in the request is over the limit.', permanent: true };
const THROTTLED = { code: 'ThrottlingException', message: 'Rate exceeded', permanent: false };

describe('the outbox job with an event that can never be published', () => {
  it('sets it aside with its reason, counts it, and publishes and removes the rest of its batch', async () => {
    const outbox = new MemoryOutbox(['a', 'big', 'b'].map(event));
    const events = new RefusingPublisher({ big: TOO_LARGE });
    const m = metrics();
    expect(await publishPending({ events, outbox, clock: { now: () => NOW }, metrics: m.port })).toEqual({ published: 2, setAside: 1 });
    expect(events.published).toEqual(['a', 'b']);
    expect([...outbox.rows.keys()]).toEqual([]);
    expect(outbox.dead).toEqual([{ item: { event: event('big'), code: TOO_LARGE.code, message: TOO_LARGE.message }, at: NOW }]);
    expect(m.values(METRIC.outboxSetAside)).toEqual([1]);
    // Nothing is left to block the next run.
    expect(await publishPending({ events, outbox, clock: { now: () => NOW }, metrics: m.port })).toEqual({ published: 0 });
    expect(m.values(METRIC.outboxSetAside)).toEqual([1]);
  });

  it('keeps an event refused for a passing reason pending, publishes the others, and stops until the next run', async () => {
    const outbox = new MemoryOutbox(['a', 'slow', 'b'].map(event));
    const m = metrics();
    expect(await publishPending({ events: new RefusingPublisher({ slow: THROTTLED }), outbox, clock: { now: () => NOW }, metrics: m.port })).toEqual({ published: 2 });
    expect([...outbox.rows.keys()]).toEqual(['slow']);
    expect(outbox.dead).toEqual([]);
    expect(outbox.reads).toBe(1);
    expect(m.values(METRIC.outboxSetAside)).toEqual([]);
    expect(await publishPending({ events: new RefusingPublisher({}), outbox, clock: { now: () => NOW }, metrics: m.port })).toEqual({ published: 1 });
  });

  it('right after the commit, removes the rows of the events that were published and leaves the others to the job', async () => {
    const outbox = new MemoryOutbox(['a', 'big', 'slow'].map(event));
    await publishCommitted({ events: new RefusingPublisher({ big: TOO_LARGE, slow: THROTTLED }), outbox }, ['a', 'big', 'slow'].map(event));
    expect([...outbox.rows.keys()]).toEqual(['big', 'slow']);
    expect(outbox.dead).toEqual([]);
  });
});
