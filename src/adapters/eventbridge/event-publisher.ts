import { type EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { EVENT_SOURCE, type DomainEvent } from '../../events/events';
import type { EventPublisher } from '../../ports/event-publisher';

/** PutEvents on the service's custom bus (10 entries per call); a partial failure throws. */
export class EventBridgePublisher implements EventPublisher {
  constructor(
    private readonly client: EventBridgeClient,
    private readonly busName: string,
  ) {}

  async publish(events: DomainEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += 10) {
      const out = await this.client.send(
        new PutEventsCommand({
          Entries: events.slice(i, i + 10).map((e) => ({ EventBusName: this.busName, Source: EVENT_SOURCE, DetailType: e.type, Detail: JSON.stringify(e.detail) })),
        }),
      );
      if ((out.FailedEntryCount ?? 0) > 0) {
        const codes = (out.Entries ?? []).map((e) => e.ErrorCode).filter(Boolean);
        throw new Error(`PutEvents failed for ${out.FailedEntryCount} entries: ${codes.join(', ')}`);
      }
    }
  }
}
