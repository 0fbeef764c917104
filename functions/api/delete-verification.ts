import { deleteVerification } from '../../src/app/delete-verification';
import { httpHandler } from '../../src/http/handler';

export const handler = httpHandler({
  operation: 'deleteVerification',
  status: 204,
  run: (deps, req) => deleteVerification(deps, req.params.flow ?? '', req.params.verificationId ?? ''),
});
