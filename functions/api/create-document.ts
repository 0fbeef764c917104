import { createDocument } from '../../src/app/create-document';
import { httpHandler } from '../../src/http/handler';
import { CreateDocumentBody } from '../../src/http/schemas';

export const handler = httpHandler({
  operation: 'createDocument',
  body: CreateDocumentBody,
  status: 201,
  run: (deps, req) => createDocument(deps, req.params.flow ?? '', req.body),
});
