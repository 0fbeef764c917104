import { EVENT_HISTORY } from '../domain/retention';
import type { DocumentRecord, VerificationAggregate } from '../domain/entities';
import type { Flow } from '../domain/flow';
import type { DomainEvent, EventType } from '../events/events';
import { logger } from '../logger';
import { METRIC } from '../ports/metrics';
import { type PublishFailure, UnpublishedEventsError } from '../ports/outbox';
import type { Deps } from './deps';
import { presentAggregate, presentDocument } from './present';

const NO_LINKS = { links: false };
/**
 * Event payloads carry no access-granting links (NO_LINKS), so presenting them reaches no link or
 * image port: building an event needs only ids and a clock. This stand-in throws if that ever changed.
 */
const NO_LINK_PORTS = new Proxy({} as Pick<Deps, 'blobs' | 'sessionSecret' | 'publicBaseUrl'>, {
  get: (_target, prop) => {
    throw new Error(`event payloads carry no links, yet '${String(prop)}' was used`);
  },
});
/** Events are built outside any HTTP request; links are left out of them anyway. */
const NO_REQUEST = { baseUrl: '' };

function envelope(deps: Pick<Deps, 'ids' | 'clock'>, type: EventType, flow: Flow, data: Record<string, unknown>): DomainEvent {
  return { type, detail: { id: deps.ids.next('evt'), type, created_at: deps.clock.now(), flow: flow.path, data } };
}

/** VerificationFinished / VerificationCanceled: the verification as Get Verification shows it, without access-granting links, with its newest EVENT_HISTORY history entries (the entry stays within EventBridge's 256 KB). */
export async function verificationEvent(deps: Pick<Deps, 'ids' | 'clock'>, type: EventType, flow: Flow, agg: VerificationAggregate): Promise<DomainEvent> {
  return envelope(deps, type, flow, { verification: await presentAggregate(NO_LINK_PORTS, NO_REQUEST, flow, agg, { ...NO_LINKS, history: EVENT_HISTORY }) });
}

/** DocumentUploaded: the document (without image links) and its verification id. */
export async function documentEvent(deps: Pick<Deps, 'ids' | 'clock'>, flow: Flow, doc: DocumentRecord): Promise<DomainEvent> {
  return envelope(deps, 'DocumentUploaded', flow, { verification_id: doc.verificationId, document: await presentDocument(NO_LINK_PORTS, flow, doc, NO_LINKS) });
}

/** The events of a publish call that were not published, by id (none when the call returned). */
async function publishReporting(deps: Pick<Deps, 'events'>, events: DomainEvent[]): Promise<Map<string, PublishFailure>> {
  try {
    await deps.events.publish(events);
    return new Map();
  } catch (error) {
    if (!(error instanceof UnpublishedEventsError)) throw error;
    return new Map(error.failures.map((f) => [f.eventId, f]));
  }
}

/**
 * Publishes events that were committed with their change (the outbox rows), then removes the rows of
 * those that were published. If publishing fails the request still succeeds: the outbox job publishes
 * the rest later (at least once), or sets aside what can never be published.
 */
export async function publishCommitted(deps: Pick<Deps, 'events' | 'outbox'>, events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  try {
    const failed = await publishReporting(deps, events);
    const published = events.filter((e) => !failed.has(e.detail.id)).map((e) => e.detail.id);
    if (published.length > 0) await deps.outbox.remove(published);
    if (failed.size > 0) logger.warn('event publishing left to the outbox job', { errorCodes: [...new Set([...failed.values()].map((f) => f.code))], eventIds: [...failed.keys()] });
  } catch (error) {
    logger.warn('event publishing left to the outbox job', { errorName: (error as Error).name, eventIds: events.map((e) => e.detail.id) });
  }
}

/**
 * The outbox job: events left unpublished for a minute (a crash, an EventBridge failure) are published
 * again. One that can never be published (over EventBridge's size limit, or refused as malformed) is
 * set aside with its reason (counted in METRIC.outboxSetAside, which alarms) instead of blocking the
 * outbox: the others of its batch are published and removed. Events that failed for a reason that
 * may pass (throttling, an outage, permissions) stay pending, and the job stops until its next run.
 */
export async function publishPending(
  deps: Pick<Deps, 'events' | 'outbox' | 'clock' | 'metrics'>,
  olderThanSeconds = 60,
): Promise<{ published: number; setAside?: number }> {
  const now = deps.clock.now();
  const before = new Date(Date.parse(now) - olderThanSeconds * 1000).toISOString();
  let published = 0;
  let setAside = 0;
  for (let first = true; ; first = false) {
    const events = await deps.outbox.pending(before, 100);
    // The first batch holds the oldest event left unpublished: its age is what the outbox alarm watches (recorded before
    // publishing, so that an EventBridge outage still shows as a growing age).
    if (first) deps.metrics.record(METRIC.outboxOldestAge, events[0] ? Math.max(0, (Date.parse(now) - Date.parse(events[0].detail.created_at)) / 1000) : 0, 'Seconds');
    if (events.length === 0) break;
    const failed = await publishReporting(deps, events);
    const done = events.filter((e) => !failed.has(e.detail.id));
    if (done.length > 0) await deps.outbox.remove(done.map((e) => e.detail.id));
    published += done.length;
    const dead = events.flatMap((event) => {
      const failure = failed.get(event.detail.id);
      return failure?.permanent ? [{ event, code: failure.code, message: failure.message }] : [];
    });
    if (dead.length > 0) {
      await deps.outbox.setAside(dead, now);
      setAside += dead.length;
      deps.metrics.record(METRIC.outboxSetAside, dead.length, 'Count');
      logger.error('events set aside: they can never be published', { eventIds: dead.map((d) => d.event.detail.id), errorCodes: [...new Set(dead.map((d) => d.code))] });
    }
    // What is still pending would be read again at once: it waits for the next run.
    if (failed.size > dead.length) break;
  }
  return setAside > 0 ? { published, setAside } : { published };
}
