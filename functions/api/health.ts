import { httpHandler } from '../../src/http/handler';

/** GET /health (no auth): 200 once the function's configuration and clients are ready. */
export const handler = httpHandler({ operation: 'health', status: 200, envelope: false, run: async () => ({ status: 'ok' }) });
