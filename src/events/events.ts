import type { EventPattern } from './pattern';

/** `source` of every event the service publishes. */
export const EVENT_SOURCE = 'idv.verifications';

/**
 * Event names (past tense), also the EventBridge `detail-type`. `ScreeningHit`: a re-screen against a
 * new snapshot of a sanctions list found an approved verification's person on it (src/app/screening-rescreen.ts).
 */
export const EVENT_TYPES = ['DocumentUploaded', 'VerificationFinished', 'VerificationCanceled', 'ScreeningHit'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The `detail` of every event: also, as is, the body of the webhook POST. */
export interface EventDetail {
  id: string;
  type: EventType;
  created_at: string;
  /** Flow path: subscriptions are per flow. */
  flow: string;
  data: Record<string, unknown>;
}

export interface DomainEvent {
  type: EventType;
  detail: EventDetail;
}

/**
 * Rules, defined once: lib/event-routing.ts creates EventBridge rules from them and the local bus
 * applies the same patterns. `target` names the handler under functions/.
 */
export const EVENT_RULES: readonly { name: string; pattern: EventPattern; target: string }[] = [
  {
    name: 'WebhookDispatch',
    pattern: { source: [EVENT_SOURCE], 'detail-type': [...EVENT_TYPES] },
    target: 'events/dispatch-webhooks',
  },
  {
    name: 'PreExtract',
    pattern: { source: [EVENT_SOURCE], 'detail-type': ['DocumentUploaded'] },
    target: 'events/pre-extract',
  },
];
