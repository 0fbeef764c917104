import { getDocumentLiveness } from '../../src/app/get-document-liveness';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.getDocumentLiveness, (deps, req) => getDocumentLiveness(deps, req.params.flow, req.params.documentId));
