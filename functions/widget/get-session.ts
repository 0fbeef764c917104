import { getSession } from '../../src/app/widget';
import { httpHandler } from '../../src/http/handler';

export const handler = httpHandler({ operation: 'getWidgetSession', status: 200, run: (deps, req) => getSession(deps, req.params.token ?? '') });
