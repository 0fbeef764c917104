import { getFlowConfiguration } from '../../src/app/get-flow-configuration';
import { httpHandler } from '../../src/http/handler';

export const handler = httpHandler({
  operation: 'getFlowConfiguration',
  status: 200,
  run: (deps, req) => getFlowConfiguration(deps, req.params.flow ?? ''),
});
