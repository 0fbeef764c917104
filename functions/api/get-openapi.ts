import document from '../../openapi/openapi.json';
import { getOpenApi } from '../../src/app/get-openapi';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

/** GET /api/v1/openapi.json (no auth): the checked-in OpenAPI 3.1 document (npm run openapi), served with its own base address. */
export const handler = httpHandler(route.getOpenApi, async (deps, req) => getOpenApi(deps, req.info, document));
