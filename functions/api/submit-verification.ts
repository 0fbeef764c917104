import { submitVerification } from '../../src/app/submit-verification';
import { httpHandler } from '../../src/http/handler';

export const handler = httpHandler({
  operation: 'submitVerification',
  status: 200,
  run: (deps, req) => submitVerification(deps, req.info, req.params.flow ?? '', req.params.verificationId ?? ''),
});
