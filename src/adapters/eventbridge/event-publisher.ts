import { type EventBridgeClient, PutEventsCommand, type PutEventsCommandOutput, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { EVENT_SOURCE, type DomainEvent } from '../../events/events';
import type { EventPublisher } from '../../ports/event-publisher';
import { type PublishFailure, UnpublishedEventsError } from '../../ports/outbox';

/** EventBridge's PutEvents limits: 10 entries a request, 256 KB for the entries of one request together. */
export const PUT_EVENTS_LIMITS = { entries: 10, bytes: 256 * 1024 } as const;

/**
 * What EventBridge answers a request whose entries are over the size limit together (the SDK throws
 * it): one entry over the limit alone is such a request, so it is how an oversize entry is reported,
 * here before sending and by the local bus.
 */
export const OVER_SIZE = { code: 'ValidationException', message: 'Total size of the entries in the request is over the limit.' } as const;

/** How an entry over the size limit is reported (permanent: it can never be published). */
export function overSize(eventId: string, size: number): PublishFailure {
  return { eventId, code: OVER_SIZE.code, message: `${OVER_SIZE.message} (one entry of ${size} bytes)`, permanent: true };
}

/**
 * Entry codes that name a fault of the entry itself, so that sending it again can never succeed
 * (the PutEventsResultEntry reference lists them as non-retryable). The other non-retryable codes
 * (AccessDeniedException, NotAuthorizedFor…, InvalidAccountIdException) are the deployment's fault and
 * would refuse every event alike: those stay pending until it is fixed, as retryable ones do.
 */
const ENTRY_FAULTS = new Set<string>([OVER_SIZE.code, 'MalformedDetail', 'InvalidArgument']);

/** The PutEvents entry of an event. */
export function putEventsEntry(event: DomainEvent, busName: string): PutEventsRequestEntry {
  return { EventBusName: busName, Source: EVENT_SOURCE, DetailType: event.type, Detail: JSON.stringify(event.detail) };
}

/**
 * An entry's size as EventBridge counts it ("Calculating PutEvents event entry size", EventBridge
 * User Guide): 14 bytes for Time if given, and the UTF-8 bytes of Source, DetailType, Detail and each
 * of Resources. The bus name does not count.
 */
export function entrySize(entry: PutEventsRequestEntry): number {
  const bytes = (s: string | undefined) => (s === undefined ? 0 : Buffer.byteLength(s, 'utf8'));
  return (entry.Time ? 14 : 0) + bytes(entry.Source) + bytes(entry.DetailType) + bytes(entry.Detail) + (entry.Resources ?? []).reduce((n, r) => n + bytes(r), 0);
}

type Sized = { eventId: string; entry: PutEventsRequestEntry; size: number };

/** Consecutive runs of entries, each within PutEvents' entry count and total size. */
function requests(entries: Sized[]): Sized[][] {
  const out: Sized[][] = [];
  let current: Sized[] = [];
  let bytes = 0;
  for (const e of entries) {
    if (current.length === PUT_EVENTS_LIMITS.entries || (current.length > 0 && bytes + e.size > PUT_EVENTS_LIMITS.bytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(e);
    bytes += e.size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * PutEvents on the service's custom bus, in requests within EventBridge's limits. A failure is per
 * event: an entry over the size limit is not sent; an entry EventBridge refuses, or every entry of a
 * request that failed as a whole, is reported, and the others are published. When any failed, it
 * throws UnpublishedEventsError naming them (permanent or not), after sending everything else.
 */
export class EventBridgePublisher implements EventPublisher {
  constructor(
    private readonly client: EventBridgeClient,
    private readonly busName: string,
  ) {}

  async publish(events: DomainEvent[]): Promise<void> {
    const failures: PublishFailure[] = [];
    const sized: Sized[] = [];
    for (const event of events) {
      const entry = putEventsEntry(event, this.busName);
      const size = entrySize(entry);
      if (size > PUT_EVENTS_LIMITS.bytes) failures.push(overSize(event.detail.id, size));
      else sized.push({ eventId: event.detail.id, entry, size });
    }
    for (const request of requests(sized)) failures.push(...(await this.send(request)));
    if (failures.length > 0) throw new UnpublishedEventsError(failures);
  }

  /** One PutEvents request; the entries that were not published. */
  private async send(request: Sized[]): Promise<PublishFailure[]> {
    let out: PutEventsCommandOutput;
    try {
      out = await this.client.send(new PutEventsCommand({ Entries: request.map((r) => r.entry) }));
    } catch (error) {
      const code = (error as { name?: string }).name ?? 'Error';
      // Refused as a whole: when several entries were sent, each is tried alone to find the one at fault.
      if (code === OVER_SIZE.code && request.length > 1) {
        const alone: PublishFailure[] = [];
        for (const r of request) alone.push(...(await this.send([r])));
        return alone;
      }
      return request.map((r) => ({ eventId: r.eventId, code, message: (error as Error).message ?? '', permanent: request.length === 1 && ENTRY_FAULTS.has(code) }));
    }
    if ((out.FailedEntryCount ?? 0) === 0) return [];
    // The result entries are in the order of the request's; one without an EventId was not published.
    return request.flatMap((r, i): PublishFailure[] => {
      const result = out.Entries?.[i];
      if (result?.EventId && !result.ErrorCode) return [];
      const code = result?.ErrorCode ?? 'Unknown';
      return [{ eventId: r.eventId, code, message: result?.ErrorMessage ?? '', permanent: ENTRY_FAULTS.has(code) }];
    });
  }
}
