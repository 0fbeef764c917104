import { submitLivenessFrames } from '../../src/app/liveness';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.uploadLivenessFrames, (deps, req) => submitLivenessFrames(deps, req.params.token, req.body));
