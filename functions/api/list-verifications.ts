import { listVerifications } from '../../src/app/list-verifications';
import { httpHandler } from '../../src/http/handler';
import { parsePage } from '../../src/http/query';

/** Serves GET /api/v1/<flow>/verifications and GET /api/v1/verifications (all flows). */
export const handler = httpHandler({
  operation: 'listVerifications',
  status: 200,
  envelope: false,
  run: (deps, req) => listVerifications(deps, req.info, req.params.flow, parsePage(req.query.page)),
});
