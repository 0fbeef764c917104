import { getDocument } from '../../src/app/get-document';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.getDocument, (deps, req) => getDocument(deps, req.params.flow, req.params.documentId));
