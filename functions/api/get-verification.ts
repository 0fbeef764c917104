import { getVerification } from '../../src/app/get-verification';
import { httpHandler } from '../../src/http/handler';

export const handler = httpHandler({
  operation: 'getVerification',
  status: 200,
  run: (deps, req) => getVerification(deps, req.info, req.params.flow ?? '', req.params.verificationId ?? ''),
});
