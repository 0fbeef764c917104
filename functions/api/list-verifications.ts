import { listVerifications } from '../../src/app/list-verifications';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';
import { parsePage, parseSearch, parseStatusFilter } from '../../src/http/query';

/** Serves GET /api/v1/<flow>/verifications and GET /api/v1/verifications (all flows), with `status` and `search`. */
export const handler = httpHandler(route.listVerifications, (deps, req) =>
  listVerifications(deps, req.info, (req.params as Partial<typeof req.params>).flow, parsePage(req.query.page), {
    status: parseStatusFilter(req.query.status),
    search: parseSearch(req.query.search),
  }),
);
