import { createVerification, presentCreated } from '../../src/app/create-verification';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.createVerification, (deps, req) => createVerification(deps, req.info, req.params.flow, req.body), {
  replay: (deps, req, id) => presentCreated(deps, req.info, req.params.flow, id),
});
