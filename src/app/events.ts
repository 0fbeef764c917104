import type { DocumentRecord, VerificationAggregate } from '../domain/entities';
import type { Flow } from '../domain/flow';
import type { DomainEvent, EventType } from '../events/events';
import { logger } from '../logger';
import { METRIC } from '../ports/metrics';
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

/** VerificationFinished / VerificationCanceled: the verification as Get Verification shows it, without access-granting links. */
export async function verificationEvent(deps: Pick<Deps, 'ids' | 'clock'>, type: EventType, flow: Flow, agg: VerificationAggregate): Promise<DomainEvent> {
  return envelope(deps, type, flow, { verification: await presentAggregate(NO_LINK_PORTS, NO_REQUEST, flow, agg, NO_LINKS) });
}

/** DocumentUploaded: the document (without image links) and its verification id. */
export async function documentEvent(deps: Pick<Deps, 'ids' | 'clock'>, flow: Flow, doc: DocumentRecord): Promise<DomainEvent> {
  return envelope(deps, 'DocumentUploaded', flow, { verification_id: doc.verificationId, document: await presentDocument(NO_LINK_PORTS, flow, doc, NO_LINKS) });
}

/**
 * Publishes events that were committed with their change (the outbox rows), then removes the rows.
 * If publishing fails the request still succeeds: the outbox job publishes them later (at least once).
 */
export async function publishCommitted(deps: Pick<Deps, 'events' | 'outbox'>, events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  try {
    await deps.events.publish(events);
    await deps.outbox.remove(events.map((e) => e.detail.id));
  } catch (error) {
    logger.warn('event publishing left to the outbox job', { errorName: (error as Error).name, eventIds: events.map((e) => e.detail.id) });
  }
}

/** The outbox job: events left unpublished for a minute (a crash, an EventBridge failure) are published again. */
export async function publishPending(deps: Pick<Deps, 'events' | 'outbox' | 'clock' | 'metrics'>, olderThanSeconds = 60): Promise<{ published: number }> {
  const now = deps.clock.now();
  const before = new Date(Date.parse(now) - olderThanSeconds * 1000).toISOString();
  let published = 0;
  for (;;) {
    const events = await deps.outbox.pending(before, 100);
    // The first batch holds the oldest event left unpublished: its age is what the outbox alarm watches (recorded before
    // publishing, so that an EventBridge outage still shows as a growing age).
    if (published === 0) deps.metrics.record(METRIC.outboxOldestAge, events[0] ? Math.max(0, (Date.parse(now) - Date.parse(events[0].detail.created_at)) / 1000) : 0, 'Seconds');
    if (events.length === 0) return { published };
    await deps.events.publish(events);
    await deps.outbox.remove(events.map((e) => e.detail.id));
    published += events.length;
  }
}
