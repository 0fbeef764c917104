import { listWebhooks } from '../../src/app/webhooks';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.listWebhooks, (deps, req) => listWebhooks(deps, req.params.flow));
