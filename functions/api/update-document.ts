import { updateDocument } from '../../src/app/update-document';
import { httpHandler } from '../../src/http/handler';
import { UpdateDocumentBody } from '../../src/http/schemas';

export const handler = httpHandler({
  operation: 'updateDocument',
  body: UpdateDocumentBody,
  status: 200,
  run: (deps, req) => updateDocument(deps, req.params.flow ?? '', req.params.documentId ?? '', req.body),
});
