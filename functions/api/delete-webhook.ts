import { deleteWebhook } from '../../src/app/webhooks';
import { httpHandler } from '../../src/http/handler';

export const handler = httpHandler({
  operation: 'deleteWebhook',
  status: 204,
  run: (deps, req) => deleteWebhook(deps, req.params.flow ?? '', req.params.webhookId ?? ''),
});
