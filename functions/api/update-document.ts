import { updateDocument } from '../../src/app/update-document';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.updateDocument, (deps, req) => updateDocument(deps, req.params.flow, req.params.documentId, req.body));
