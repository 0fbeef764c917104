import { createWebhook } from '../../src/app/webhooks';
import { httpHandler } from '../../src/http/handler';
import { CreateWebhookBody } from '../../src/http/schemas';

/** Subscribes a URL to a flow's events; the signing secret is in this response only. */
export const handler = httpHandler({
  operation: 'createWebhook',
  body: CreateWebhookBody,
  status: 201,
  run: (deps, req) => createWebhook(deps, req.params.flow ?? '', req.body),
});
