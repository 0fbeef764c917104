import type { EventBridgeEvent } from 'aws-lambda';
import { dispatchEvent } from '../../src/app/webhooks';
import { getDeps } from '../../src/container';
import type { EventDetail } from '../../src/events/events';

/** Target of the WebhookDispatch rule: one delivery record and queued job per matching subscription. */
export async function handler(event: EventBridgeEvent<string, EventDetail>): Promise<{ queued: number }> {
  return { queued: await dispatchEvent(await getDeps(['webhooks', 'deliveries', 'clock', 'ids']), event.detail) };
}
