import { getSession } from '../../src/app/widget';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.getWidgetSession, (deps, req) => getSession(deps, req.params.token));
