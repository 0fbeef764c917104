import { listFlows } from '../../src/app/get-flow-configuration';
import { httpHandler } from '../../src/http/handler';

/** GET /api/v1/flows: the flows' path and display names (the console maps names to paths). */
export const handler = httpHandler({ operation: 'listFlows', status: 200, run: (deps) => listFlows(deps) });
