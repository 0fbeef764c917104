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
 * Events are written in the same transaction as the change that caused them (the outbox), published
 * right after the commit, and removed once published; what a crash or an EventBridge failure left
 * behind is published again by the outbox job. Consumers are idempotent on the event id.
 */
export interface Outbox {
  /** Events still unpublished that were written before `before`, oldest first. */
  pending(before: string, limit: number): Promise<DomainEvent[]>;
  remove(eventIds: string[]): Promise<void>;
  /** Run tickets last checked before `before`, oldest first. */
  dueRuns(before: string, limit: number): Promise<RunTicket[]>;
  /** Replaces `ticket` with `next` if it is still as read; false when another sweeper or a newer run changed it. */
  updateRun(ticket: RunTicket, next: RunTicket): Promise<boolean>;
  /** Removes `ticket` if it still names the same run and attempt. */
  removeRun(ticket: RunTicket): Promise<void>;
}
