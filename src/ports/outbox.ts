import type { DomainEvent } from '../events/events';

/**
 * Events are written in the same transaction as the change that caused them (the outbox), published
 * right after the commit, and removed once published; what a crash or an EventBridge failure left
 * behind is published again by the outbox job. Consumers are idempotent on the event id.
 */
export interface Outbox {
  /** Events still unpublished that were written before `before`, oldest first. */
  pending(before: string, limit: number): Promise<DomainEvent[]>;
  remove(eventIds: string[]): Promise<void>;
}
