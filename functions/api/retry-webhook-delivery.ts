import { presentRetried, retryDelivery } from '../../src/app/webhooks';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

/** Sends a delivery again now, recorded as a new attempt. */
export const handler = httpHandler(route.retryWebhookDelivery, (deps, req) => retryDelivery(deps, req.params.flow, req.params.webhookId, req.params.deliveryId), {
  replay: (deps, req, id) => presentRetried(deps, req.params.flow, req.params.webhookId, id),
});
