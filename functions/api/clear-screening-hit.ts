import { clearScreeningHit } from '../../src/app/screening-clear';
import { presentActed } from '../../src/app/verification-actions';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

/** POST /api/v1/<flow>/verifications/<id>/screening/clear: a reviewer clears a screening hit (an addition to the spec). */
export const handler = httpHandler(route.clearScreeningHit, (deps, req) => clearScreeningHit(deps, req.info, req.params.flow, req.params.verificationId, req.body), {
  replay: (deps, req, id) => presentActed(deps, req.info, req.params.flow, id),
});
