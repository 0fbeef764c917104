import { resubmitVerification } from '../../src/app/resubmit-verification';
import { httpHandler } from '../../src/http/handler';
import { ActionBody } from '../../src/http/schemas';

export const handler = httpHandler({
  operation: 'resubmitVerification',
  body: ActionBody,
  status: 200,
  run: (deps, req) => resubmitVerification(deps, req.info, req.params.flow ?? '', req.params.verificationId ?? '', req.body),
});
