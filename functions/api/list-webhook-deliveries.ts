import { listDeliveries } from '../../src/app/webhooks';
import { httpHandler } from '../../src/http/handler';

/** The last 50 deliveries of a subscription, newest first, with every attempt. */
export const handler = httpHandler({
  operation: 'listWebhookDeliveries',
  status: 200,
  run: (deps, req) => listDeliveries(deps, req.params.flow ?? '', req.params.webhookId ?? ''),
});
