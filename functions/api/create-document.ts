import { createDocument, presentCreatedDocument } from '../../src/app/create-document';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

export const handler = httpHandler(route.createDocument, (deps, req) => createDocument(deps, req.params.flow, req.body), {
  replay: (deps, req, id) => presentCreatedDocument(deps, req.params.flow, id),
});
