import type { DocumentRecord, VerificationAggregate } from '../domain/entities';
import type { Flow } from '../domain/flow';
import type { DomainEvent, EventType } from '../events/events';
import { logger } from '../logger';
import type { Deps } from './deps';
import { presentAggregate, presentDocument } from './present';

const NO_LINKS = { links: false };
/** Events are built outside any HTTP request; links are left out of them anyway. */
const NO_REQUEST = { baseUrl: '' };

function envelope(deps: Pick<Deps, 'ids' | 'clock'>, type: EventType, flow: Flow, data: Record<string, unknown>): DomainEvent {
  return { type, detail: { id: deps.ids.next('evt'), type, created_at: deps.clock.now(), flow: flow.path, data } };
}

/** VerificationFinished / VerificationCanceled: the verification as Get Verification shows it, without access-granting links. */
export async function verificationEvent(deps: Deps, type: EventType, flow: Flow, agg: VerificationAggregate): Promise<DomainEvent> {
  return envelope(deps, type, flow, { verification: await presentAggregate(deps, NO_REQUEST, flow, agg, NO_LINKS) });
}

/** DocumentUploaded: the document (without image links) and its verification id. */
export async function documentEvent(deps: Deps, flow: Flow, doc: DocumentRecord): Promise<DomainEvent> {
  return envelope(deps, 'DocumentUploaded', flow, { verification_id: doc.verificationId, document: await presentDocument(deps, flow, doc, NO_LINKS) });
}

/**
 * Publishes after the state change committed. A publishing failure is logged (ids only) and does
 * not undo or fail the committed change (see README "Events": at-most-once until the outbox lands).
 */
export async function publishAfterCommit(deps: Deps, build: () => Promise<DomainEvent[]>): Promise<void> {
  try {
    await deps.events.publish(await build());
  } catch (error) {
    logger.error('event publishing failed', { errorName: (error as Error).name });
  }
}
