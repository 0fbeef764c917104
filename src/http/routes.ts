/**
 * THE route table: the CDK REST API (lib/rest-api.ts) and the local HTTP front (local/server.ts)
 * are both built from it, so the deployed and local APIs cannot drift apart.
 * `handler` is the entry file under functions/, one Lambda per file.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDef {
  operation: string;
  method: HttpMethod;
  /** API Gateway resource path with {placeholders}. */
  path: string;
  handler: string;
  auth: boolean;
  /** Honours the Idempotency-Key header (every POST and action PUT). */
  idempotent?: boolean;
}

const V = '/api/v1/{flow}/verifications';
const D = '/api/v1/{flow}/documents';

export const routes: readonly RouteDef[] = [
  { operation: 'health', method: 'GET', path: '/health', handler: 'api/health', auth: false },
  { operation: 'getOpenApi', method: 'GET', path: '/api/v1/openapi.json', handler: 'api/get-openapi', auth: false },
  { operation: 'listFlows', method: 'GET', path: '/api/v1/flows', handler: 'api/list-flows', auth: true },
  { operation: 'getFlowConfiguration', method: 'GET', path: '/api/v1/{flow}/configuration', handler: 'api/get-flow-configuration', auth: true },
  { operation: 'listAllVerifications', method: 'GET', path: '/api/v1/verifications', handler: 'api/list-verifications', auth: true },
  { operation: 'listVerifications', method: 'GET', path: V, handler: 'api/list-verifications', auth: true },
  { operation: 'createVerification', method: 'POST', path: V, handler: 'api/create-verification', auth: true, idempotent: true },
  { operation: 'getVerification', method: 'GET', path: `${V}/{verificationId}`, handler: 'api/get-verification', auth: true },
  { operation: 'updateVerification', method: 'PATCH', path: `${V}/{verificationId}`, handler: 'api/update-verification', auth: true },
  { operation: 'deleteVerification', method: 'DELETE', path: `${V}/{verificationId}`, handler: 'api/delete-verification', auth: true },
  { operation: 'submitVerification', method: 'PUT', path: `${V}/{verificationId}/submit`, handler: 'api/submit-verification', auth: true, idempotent: true },
  { operation: 'resubmitVerification', method: 'PUT', path: `${V}/{verificationId}/resubmit`, handler: 'api/resubmit-verification', auth: true, idempotent: true },
  { operation: 'approveVerification', method: 'PUT', path: `${V}/{verificationId}/approve`, handler: 'api/approve-verification', auth: true, idempotent: true },
  { operation: 'rejectVerification', method: 'PUT', path: `${V}/{verificationId}/reject`, handler: 'api/reject-verification', auth: true, idempotent: true },
  { operation: 'cancelVerification', method: 'PUT', path: `${V}/{verificationId}/cancel`, handler: 'api/cancel-verification', auth: true, idempotent: true },
  { operation: 'createDocument', method: 'POST', path: D, handler: 'api/create-document', auth: true, idempotent: true },
  { operation: 'getDocument', method: 'GET', path: `${D}/{documentId}`, handler: 'api/get-document', auth: true },
  { operation: 'updateDocument', method: 'PATCH', path: `${D}/{documentId}`, handler: 'api/update-document', auth: true },
  { operation: 'deleteDocument', method: 'DELETE', path: `${D}/{documentId}`, handler: 'api/delete-document', auth: true },
  { operation: 'downloadDocumentPdf', method: 'GET', path: `${D}/{documentId}/pdf`, handler: 'api/download-document-pdf', auth: true },
  { operation: 'createWebhook', method: 'POST', path: '/api/v1/{flow}/webhooks', handler: 'api/create-webhook', auth: true, idempotent: true },
  { operation: 'listWebhooks', method: 'GET', path: '/api/v1/{flow}/webhooks', handler: 'api/list-webhooks', auth: true },
  { operation: 'deleteWebhook', method: 'DELETE', path: '/api/v1/{flow}/webhooks/{webhookId}', handler: 'api/delete-webhook', auth: true },
  { operation: 'listWebhookDeliveries', method: 'GET', path: '/api/v1/{flow}/webhooks/{webhookId}/deliveries', handler: 'api/list-webhook-deliveries', auth: true },
  // The end-user widget: its credential is the session token in the path.
  { operation: 'getWidgetPage', method: 'GET', path: '/v/{token}', handler: 'widget/page', auth: false },
  { operation: 'getWidgetQr', method: 'GET', path: '/v/{token}/qr', handler: 'widget/qr', auth: false },
  { operation: 'getWidgetSession', method: 'GET', path: '/v/{token}/session', handler: 'widget/get-session', auth: false },
  { operation: 'uploadWidgetDocument', method: 'POST', path: '/v/{token}/documents', handler: 'widget/upload-document', auth: false },
  { operation: 'deleteWidgetDocument', method: 'DELETE', path: '/v/{token}/documents/{documentId}', handler: 'widget/delete-document', auth: false },
  { operation: 'submitWidget', method: 'PUT', path: '/v/{token}/submit', handler: 'widget/submit', auth: false },
  { operation: 'getWidgetAsset', method: 'GET', path: '/widget/{asset}', handler: 'widget/asset', auth: false },
  // The reviewer console signs in with an API token held by the page, so the page itself is public.
  { operation: 'getConsole', method: 'GET', path: '/console', handler: 'widget/console', auth: false },
];

/** Entry files, each once (List serves two routes). */
export function handlerFiles(): string[] {
  return [...new Set(routes.map((r) => r.handler))];
}
