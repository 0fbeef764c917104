import { listWebhooks } from '../../src/app/webhooks';
import { httpHandler } from '../../src/http/handler';

export const handler = httpHandler({
  operation: 'listWebhooks',
  status: 200,
  run: (deps, req) => listWebhooks(deps, req.params.flow ?? ''),
});
