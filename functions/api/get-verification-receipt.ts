import { getVerificationReceipt } from '../../src/app/get-verification-receipt';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.getVerificationReceipt, (deps, req) => getVerificationReceipt(deps, req.params.flow, req.params.verificationId));
