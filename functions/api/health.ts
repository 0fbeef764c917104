import { createHealthCheck, type HealthReport } from '../../src/app/health';
import { httpHandler } from '../../src/http/handler';

/** Shared by the invocations of this container: the answer is cached for a few seconds. */
let check: (() => Promise<HealthReport>) | undefined;

/** GET /health (no auth): 200 when every backing service answers, else 503 naming the one that does not. */
export const handler = httpHandler({ operation: 'health', status: 200, envelope: false, run: async (deps) => (check ??= createHealthCheck(deps.probes))() });
