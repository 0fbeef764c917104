import { createVerification } from '../../src/app/create-verification';
import { httpHandler } from '../../src/http/handler';
import { CreateVerificationBody } from '../../src/http/schemas';

export const handler = httpHandler({
  operation: 'createVerification',
  body: CreateVerificationBody,
  status: 201,
  run: (deps, req) => createVerification(deps, req.info, req.params.flow ?? '', req.body),
});
