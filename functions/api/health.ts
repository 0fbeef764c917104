import { createHealthCheck, type HealthReport } from '../../src/app/health';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

/** Shared by the invocations of this container: the answer is cached for a few seconds. */
let check: (() => Promise<HealthReport>) | undefined;

/** GET /health (no auth): 200 when every backing service answers, else 503 naming the one that does not. */
export const handler = httpHandler(route.health, async (deps) => (check ??= createHealthCheck(deps.probes))());
