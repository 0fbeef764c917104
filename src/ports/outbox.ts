import type { DomainEvent } from '../events/events';

/**
 * A run of the pipeline that must end: written in the same transaction as the change that starts the
 * run (Submit, Resubmit, Update to Double Check), like an event in the outbox. The run sweeper reads
 * tickets that have been quiet for a while and starts, restarts or fails their run; a ticket whose run
 * is no longer current is removed.
 */
export interface RunTicket {
  verificationId: string;
  run: number;
  /** Executions of this run started by the sweeper so far (0: the one the change started). */
  attempt: number;
  /** When the current attempt was started (or committed). */
  startedAt: string;
  /** When the sweeper last looked (or the commit): the ticket is due again `checkAfter` later. */
  checkedAt: string;
}

/**
 * An event an EventPublisher could not publish, and why. `permanent` when sending it again can never
 * succeed (the entry is over EventBridge's size limit, or EventBridge refused the entry itself as
 * malformed): the outbox sets it aside instead of retrying it. Throttling, internal and permission
 * failures are not permanent: the event stays pending and the outbox age alarm speaks for it.
 */
export interface PublishFailure {
  eventId: string;
  /** EventBridge's code: the entry's ErrorCode, or the name of the error the request was refused with. */
  code: string;
  message: string;
  permanent: boolean;
}

/**
 * Thrown by an EventPublisher whose call published some events and not others: every event not named
 * in `failures` was published. It lives beside the outbox because the outbox is what acts on it.
 */
export class UnpublishedEventsError extends Error {
  override readonly name = 'UnpublishedEventsError';
  constructor(readonly failures: readonly PublishFailure[]) {
    super(`${failures.length} event(s) not published: ${[...new Set(failures.map((f) => f.code))].join(', ')}`);
  }
}

/** An event that can never be published, with the reason, as the outbox keeps it for an operator. */
export interface SetAsideEvent {
  event: DomainEvent;
  code: string;
  message: string;
}

/**
 * Events are written in the same transaction as the change that caused them (the outbox), published
 * right after the commit, and removed once published; what a crash or an EventBridge failure left
 * behind is published again by the outbox job. Consumers are idempotent on the event id.
 */
export interface Outbox {
  /** Events still unpublished that were written before `before`, oldest first. */
  pending(before: string, limit: number): Promise<DomainEvent[]>;
  remove(eventIds: string[]): Promise<void>;
  /**
   * Moves events that can never be published out of the pending index into the dead-letter partition,
   * with their reason and `at`, where they stay for an operator (nothing deletes them). Without it (the
   * in-memory fake, until it implements it) such an event stays pending, as before.
   */
  setAside(events: readonly SetAsideEvent[], at: string): Promise<void>;
  /** Run tickets last checked before `before`, oldest first. */
  dueRuns(before: string, limit: number): Promise<RunTicket[]>;
  /** Replaces `ticket` with `next` if it is still as read; false when another sweeper or a newer run changed it. */
  updateRun(ticket: RunTicket, next: RunTicket): Promise<boolean>;
  /** Removes `ticket` if it still names the same run and attempt. */
  removeRun(ticket: RunTicket): Promise<void>;
}
