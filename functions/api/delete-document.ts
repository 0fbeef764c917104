import { deleteDocument } from '../../src/app/delete-document';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.deleteDocument, (deps, req) => deleteDocument(deps, req.params.flow, req.params.documentId));
