import { createWebhook, presentCreatedWebhook } from '../../src/app/webhooks';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

/** Subscribes a URL to a flow's events; the signing secret is in this response only. */
export const handler = httpHandler(route.createWebhook, (deps, req) => createWebhook(deps, req.params.flow, req.body), {
  replay: (deps, req, id) => presentCreatedWebhook(deps, req.params.flow, id),
});
