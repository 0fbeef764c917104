import { presentActed } from '../../src/app/verification-actions';
import { cancelVerification } from '../../src/app/cancel-verification';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.cancelVerification, (deps, req) => cancelVerification(deps, req.info, req.params.flow, req.params.verificationId, req.body), {
  replay: (deps, req, id) => presentActed(deps, req.info, req.params.flow, id),
});
