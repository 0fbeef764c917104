import { presentActed } from '../../src/app/verification-actions';
import { submitVerification } from '../../src/app/submit-verification';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.submitVerification, (deps, req) => submitVerification(deps, req.info, req.params.flow, req.params.verificationId), {
  replay: (deps, req, id) => presentActed(deps, req.info, req.params.flow, id),
});
