import { updateVerification } from '../../src/app/update-verification';
import { httpHandler } from '../../src/http/handler';
import { UpdateVerificationBody } from '../../src/http/schemas';

export const handler = httpHandler({
  operation: 'updateVerification',
  body: UpdateVerificationBody,
  status: 200,
  run: (deps, req) => updateVerification(deps, req.info, req.params.flow ?? '', req.params.verificationId ?? '', req.body),
});
