import { downloadDocumentPdf } from '../../src/app/download-document-pdf';
import { httpHandler } from '../../src/http/handler';

/** Answers `{ "data": "<PDF as base64>" }`, as the spec requires (not a binary stream). */
export const handler = httpHandler({
  operation: 'downloadDocumentPdf',
  status: 200,
  run: (deps, req) => downloadDocumentPdf(deps, req.params.flow ?? '', req.params.documentId ?? ''),
});
