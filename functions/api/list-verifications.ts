import { listVerifications } from '../../src/app/list-verifications';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { parseListQuery } from '../../src/http/query';

/** Serves GET /api/v1/<flow>/verifications and GET /api/v1/verifications (all flows), with `status` and `search`. */
export const handler = httpHandler(route.listVerifications, (deps, req) => {
  const query = parseListQuery(req.query);
  return listVerifications(deps, req.info, (req.params as Partial<typeof req.params>).flow, query.page, query);
});
