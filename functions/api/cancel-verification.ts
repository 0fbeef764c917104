import { cancelVerification } from '../../src/app/cancel-verification';
import { httpHandler } from '../../src/http/handler';
import { ActionBody } from '../../src/http/schemas';

export const handler = httpHandler({
  operation: 'cancelVerification',
  body: ActionBody,
  status: 200,
  run: (deps, req) => cancelVerification(deps, req.info, req.params.flow ?? '', req.params.verificationId ?? '', req.body),
});
