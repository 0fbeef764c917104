import { deleteVerification } from '../../src/app/delete-verification';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.deleteVerification, (deps, req) => deleteVerification(deps, req.params.flow, req.params.verificationId));
