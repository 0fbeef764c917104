import { submitFromWidget } from '../../src/app/widget';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.submitWidget, (deps, req) => submitFromWidget(deps, req.info, req.params.token));
