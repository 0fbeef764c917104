import document from '../../openapi/openapi.json';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

/** GET /api/v1/openapi.json (no auth): the checked-in OpenAPI 3.1 document (npm run openapi). */
export const handler = httpHandler(route.getOpenApi, async () => document);
