import { deleteWebhook } from '../../src/app/webhooks';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.deleteWebhook, (deps, req) => deleteWebhook(deps, req.params.flow, req.params.webhookId));
