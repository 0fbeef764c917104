import type { DomainEvent } from '../events/events';

/** Publishes domain events (EventBridge when deployed, the in-process bus locally). */
export interface EventPublisher {
  publish(events: DomainEvent[]): Promise<void>;
}
