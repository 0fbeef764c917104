import { updateVerification } from '../../src/app/update-verification';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.updateVerification, (deps, req) => updateVerification(deps, req.info, req.params.flow, req.params.verificationId, req.body));
