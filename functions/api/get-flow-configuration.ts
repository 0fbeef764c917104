import { getFlowConfiguration } from '../../src/app/get-flow-configuration';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.getFlowConfiguration, (deps, req) => getFlowConfiguration(deps, req.params.flow));
