import { completeFaceLivenessSession } from '../../src/app/liveness-session';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.completeLivenessSession, (deps, req) => completeFaceLivenessSession(deps, req.params.token, req.params.sessionId, req.body));
