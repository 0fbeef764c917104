import { getVerification } from '../../src/app/get-verification';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.getVerification, (deps, req) => getVerification(deps, req.info, req.params.flow, req.params.verificationId));
