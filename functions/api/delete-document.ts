import { deleteDocument } from '../../src/app/delete-document';
import { httpHandler } from '../../src/http/handler';

export const handler = httpHandler({
  operation: 'deleteDocument',
  status: 204,
  run: (deps, req) => deleteDocument(deps, req.params.flow ?? '', req.params.documentId ?? ''),
});
