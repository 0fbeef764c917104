import { approveVerification } from '../../src/app/approve-verification';
import { httpHandler } from '../../src/http/handler';
import { ActionBody } from '../../src/http/schemas';

export const handler = httpHandler({
  operation: 'approveVerification',
  body: ActionBody,
  status: 200,
  run: (deps, req) => approveVerification(deps, req.info, req.params.flow ?? '', req.params.verificationId ?? '', req.body),
});
