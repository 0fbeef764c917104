import { presentActed } from '../../src/app/verification-actions';
import { rejectVerification } from '../../src/app/reject-verification';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.rejectVerification, (deps, req) => rejectVerification(deps, req.info, req.params.flow, req.params.verificationId, req.body), {
  replay: (deps, req, id) => presentActed(deps, req.info, req.params.flow, id),
});
