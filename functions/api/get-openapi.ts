import document from '../../openapi/openapi.json';
import { httpHandler } from '../../src/http/handler';

/** GET /api/v1/openapi.json (no auth): the checked-in OpenAPI 3.1 document (npm run openapi). */
export const handler = httpHandler({ operation: 'getOpenApi', status: 200, envelope: false, run: async () => document });
