import { randomUUID } from 'node:crypto';
import { EVENT_SOURCE, type DomainEvent } from '../../events/events';
import { type EventPattern, matchesPattern } from '../../events/pattern';
import type { EventPublisher } from '../../ports/event-publisher';
import { type PublishFailure, UnpublishedEventsError } from '../../ports/outbox';
import { entrySize, overSize, PUT_EVENTS_LIMITS, putEventsEntry } from '../eventbridge/event-publisher';

export interface BusRule {
  name: string;
  pattern: EventPattern;
  target: (event: unknown) => Promise<unknown>;
}

/** The EventBridge envelope a rule target receives. */
export function eventBridgeEnvelope(e: DomainEvent, region: string) {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': e.type,
    source: EVENT_SOURCE,
    account: '000000000000',
    time: new Date().toISOString(),
    region,
    resources: [],
    detail: e.detail,
  };
}

/**
 * The local stand-in for the custom EventBridge bus: the same rule patterns (src/events), the
 * same target handlers, invoked asynchronously and retried a few times like EventBridge does. It
 * refuses an event whose PutEvents entry is over EventBridge's 256 KB limit, counted the same way and
 * with the same code, so that what the deployed outbox does with such an event is seen locally.
 */
export class LocalEventBus implements EventPublisher {
  private readonly pending = new Set<Promise<void>>();
  readonly failures: { rule: string; error: string }[] = [];

  constructor(
    private readonly rules: BusRule[],
    private readonly region = 'us-east-1',
    private readonly retryDelayMs = 50,
  ) {}

  private paused: DomainEvent[] | undefined;

  /** Holds events until resume() (the benchmark counts an operation's own requests). */
  pause(): void {
    this.paused ??= [];
  }

  async resume(): Promise<void> {
    const held = this.paused ?? [];
    this.paused = undefined;
    this.deliver(held);
  }

  async publish(events: DomainEvent[]): Promise<void> {
    const failures: PublishFailure[] = [];
    const accepted = events.filter((e) => {
      const size = entrySize(putEventsEntry(e, 'local'));
      if (size <= PUT_EVENTS_LIMITS.bytes) return true;
      failures.push(overSize(e.detail.id, size));
      return false;
    });
    this.deliver(accepted);
    if (failures.length > 0) throw new UnpublishedEventsError(failures);
  }

  private deliver(events: DomainEvent[]): void {
    if (this.paused) {
      this.paused.push(...events);
      return;
    }
    for (const e of events) {
      const envelope = eventBridgeEnvelope(e, this.region);
      for (const rule of this.rules) {
        if (!matchesPattern(rule.pattern, envelope)) continue;
        const run = this.invoke(rule, envelope);
        this.pending.add(run);
        void run.finally(() => this.pending.delete(run));
      }
    }
  }

  private async invoke(rule: BusRule, envelope: unknown): Promise<void> {
    await new Promise((r) => setImmediate(r));
    for (let attempt = 1; ; attempt++) {
      try {
        await rule.target(envelope);
        return;
      } catch (error) {
        if (attempt >= 3) {
          this.failures.push({ rule: rule.name, error: (error as Error).name });
          return;
        }
        await new Promise((r) => setTimeout(r, this.retryDelayMs * attempt));
      }
    }
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
