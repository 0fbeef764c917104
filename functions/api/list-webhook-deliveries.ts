import { listDeliveries } from '../../src/app/webhooks';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

/** The last 50 deliveries of a subscription, newest first, with every attempt. */
export const handler = httpHandler(route.listWebhookDeliveries, (deps, req) => listDeliveries(deps, req.params.flow, req.params.webhookId));
