import { issueLivenessChallenge } from '../../src/app/liveness';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.createLivenessChallenge, (deps, req) => issueLivenessChallenge(deps, req.params.token));
