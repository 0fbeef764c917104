import { presentActed } from '../../src/app/verification-actions';
import { resubmitVerification } from '../../src/app/resubmit-verification';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.resubmitVerification, (deps, req) => resubmitVerification(deps, req.info, req.params.flow, req.params.verificationId, req.body), {
  replay: (deps, req, id) => presentActed(deps, req.info, req.params.flow, id),
});
