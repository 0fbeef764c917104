import { rejectVerification } from '../../src/app/reject-verification';
import { httpHandler } from '../../src/http/handler';
import { ActionBody } from '../../src/http/schemas';

export const handler = httpHandler({
  operation: 'rejectVerification',
  body: ActionBody,
  status: 200,
  run: (deps, req) => rejectVerification(deps, req.info, req.params.flow ?? '', req.params.verificationId ?? '', req.body),
});
