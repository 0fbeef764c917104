import { listFlows } from '../../src/app/get-flow-configuration';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

/** GET /api/v1/flows: the flows' path and display names (the console maps names to paths); a flow-limited token sees its own. */
export const handler = httpHandler(route.listFlows, (deps, req) => listFlows(deps, req.info));
