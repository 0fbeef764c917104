import { getDocument } from '../../src/app/get-document';
import { httpHandler } from '../../src/http/handler';

export const handler = httpHandler({
  operation: 'getDocument',
  status: 200,
  run: (deps, req) => getDocument(deps, req.params.flow ?? '', req.params.documentId ?? ''),
});
