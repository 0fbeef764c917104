import { downloadDocumentPdf } from '../../src/app/download-document-pdf';
import { httpHandler } from '../../src/http/handler';
import { route } from '../../src/http/routes';

/** Answers `{ "data": "<PDF as base64>" }`, as the spec requires (not a binary stream). */
export const handler = httpHandler(route.downloadDocumentPdf, (deps, req) => downloadDocumentPdf(deps, req.params.flow, req.params.documentId));
