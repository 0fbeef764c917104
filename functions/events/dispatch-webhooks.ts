import type { EventBridgeEvent } from 'aws-lambda';
import { dispatchEvent } from '../../src/app/webhooks';
import { getDeps } from '../../src/container';
import type { EventDetail } from '../../src/events/events';
import { ENTRY_PORTS } from '../../src/entries';
import { withLambdaContext } from '../../src/logger';

/** Target of the WebhookDispatch rule: one delivery record and queued job per matching subscription. */
export const handler = withLambdaContext(async (event: EventBridgeEvent<string, EventDetail>): Promise<{ queued: number }> => {
  return { queued: await dispatchEvent(await getDeps(ENTRY_PORTS['events/dispatch-webhooks']), event.detail) };
});
