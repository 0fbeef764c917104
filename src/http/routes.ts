/**
 * THE route table: the single record of every API operation. Read by the CDK REST API and its IAM
 * grants (lib/rest-api.ts), the OpenAPI document (scripts/openapi.ts), the local HTTP front
 * (local/server.ts) and the handler wiring (src/http/handler.ts, functions/). Nothing about an
 * operation is written anywhere else.
 *
 * `needs` is what the operation may use, and all it is given:
 * - `ports`: the members of Deps handed to the use case. The handler passes a view holding only
 *   these (src/container.ts `getDeps`); touching any other port throws, so a use case that grows a
 *   dependency fails its tests until the route declares it.
 * - `table`: `read` (GetItem, BatchGetItem, Query, ConditionCheckItem) or `write` (also PutItem,
 *   UpdateItem, DeleteItem, BatchWriteItem). Never Scan.
 * - `items`: the item kinds (src/adapters/dynamodb/keys.ts) the function may address, when limited:
 *   the public widget functions are held to the verification's own items, never API tokens or
 *   webhooks (an IAM `dynamodb:LeadingKeys` condition, lib/rest-api.ts).
 * - `images`: `read` (GetObject, to sign links and read images) or `write` (also PutObject, DeleteObject).
 * - `memory` (MB, default 512) and `loads` (optional heavy modules bundled for it, src/clients.ts).
 * - `reportEngines`: sharp and pdf.js packaged beside the bundle (x86_64), for drawing uploads in the PDF report.
 * - `files`: files a function serves as they are, written beside its bundle in its `files/` folder
 *   (lib/served-files.ts) and read on first use (src/web/served-files.ts), never bundled. Each is a
 *   repository path: `node_modules/<package>/<file>` (an installed package's file: no npm install,
 *   no native code) or `src/<file>` (copied as it is), served under its last segment; or
 *   `src/<module>.ts#<name>`: the text `<name>` of the module's `FILES`, generated at bundling time
 *   from the TypeScript source (the widget's and the console's scripts and stylesheets); for a module
 *   of BROWSER_BUNDLES (lib/served-files.ts), the module itself bundled for the browser and served as
 *   `<name>` (the widget's Rekognition-mode capture, src/web/face-liveness.ts).
 * Starting the workflow, publishing events and reading the session secret follow from the ports
 * `workflow`, `events` and `sessionSecret`.
 */
import type { Port } from '../app/deps';
import type { OptionalModule } from '../clients';
import { WIDGET_LANGUAGES } from '../domain/flow';
import type { QueryName } from './query';
import type { BodyName } from './schemas';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type { Port };

/** Kinds of table items, by the key builders of src/adapters/dynamodb/keys.ts. */
export type ItemKind = 'verification' | 'session' | 'flow' | 'documentRef' | 'extraction' | 'outbox' | 'counter';

export interface Needs {
  ports: readonly Port[];
  table?: 'read' | 'write';
  items?: readonly ItemKind[];
  images?: 'read' | 'write';
  memory?: number;
  loads?: readonly OptionalModule[];
  reportEngines?: boolean;
  files?: readonly ServedFile[];
}

/** A file a function serves as it is (`Needs.files`). */
export type ServedFile = `node_modules/${string}` | `src/${string}`;

export interface RouteSpec {
  method: HttpMethod;
  /** API Gateway resource path with {placeholders}. */
  path: string;
  /** Entry file under functions/ (without extension); one Lambda per file. */
  handler: string;
  /** Success status code. */
  status: number;
  auth: boolean;
  /** Request body schema, by name (src/http/schemas.ts; validated by the handler, documented in OpenAPI). Built on first use. */
  body?: BodyName;
  /** Query parameters, by name (src/http/query.ts; all optional, parsed by the handler, documented in OpenAPI from their schemas). */
  query?: QueryName;
  /** Honours the Idempotency-Key header (every POST and action PUT); implies the `idempotency` port. */
  idempotent?: boolean;
  /** Not JSON: the handler returns a body and its content type (OpenAPI documents this one). */
  contentType?: string;
  /** The result is the whole body, not wrapped as `{ "data": … }`. */
  envelope?: false;
  /**
   * The body's `email` is the acting user. With a named reviewer token it is the token's name: left
   * out, it is filled in; naming anyone else is refused (422). Other tokens send it as the spec says.
   */
  actor?: true;
  /**
   * A route without `{flow}` that a token limited to some flows may still call: it answers for the
   * token's own flows only (who am I, which flows). Any other route without `{flow}` is 404 for it.
   */
  ownFlows?: true;
  needs: Needs;
}

const V = '/api/v1/{flow}/verifications';
const D = '/api/v1/{flow}/documents';

/** Reading a verification and presenting it with its widget links. */
const READ_VERIFICATION = ['flows', 'verifications', 'sessionSecret', 'publicBaseUrl'] as const;
/** A state change committed with its event (outbox) and published, answered with the documents' links. */
const ACTION = [...READ_VERIFICATION, 'blobs', 'clock', 'ids', 'events', 'outbox'] as const;
/** A document written with its images and its event. */
const WRITE_DOCUMENT = ['flows', 'verifications', 'documents', 'blobs', 'clock', 'ids', 'events', 'outbox'] as const;
/** Resolving a widget session: the token's hash, the verification, its flow. */
const SESSION = ['verifications', 'sessionSecret', 'flows'] as const;
/** What the public widget may address in the table: its verification's items, never tokens or webhooks. */
const WIDGET_ITEMS: readonly ItemKind[] = ['verification', 'session', 'flow', 'documentRef', 'extraction', 'outbox', 'counter'];

const ROUTE_TABLE = {
  health: { method: 'GET', path: '/health', handler: 'api/health', status: 200, auth: false, envelope: false, needs: { ports: ['probes'], table: 'read' } },
  getOpenApi: { method: 'GET', path: '/api/v1/openapi.json', handler: 'api/get-openapi', status: 200, auth: false, envelope: false, needs: { ports: ['publicBaseUrl'] } },
  // Who the token is (the console shows it and records actions under it); no table access.
  getCaller: { method: 'GET', path: '/api/v1/me', handler: 'api/get-caller', status: 200, auth: true, ownFlows: true, needs: { ports: [] } },
  listFlows: { method: 'GET', path: '/api/v1/flows', handler: 'api/list-flows', status: 200, auth: true, ownFlows: true, needs: { ports: ['flows'], table: 'read' } },
  getFlowConfiguration: { method: 'GET', path: '/api/v1/{flow}/configuration', handler: 'api/get-flow-configuration', status: 200, auth: true, needs: { ports: ['flows'], table: 'read' } },
  listAllVerifications: { method: 'GET', path: '/api/v1/verifications', handler: 'api/list-verifications', status: 200, auth: true, envelope: false, query: 'list', needs: { ports: READ_VERIFICATION, table: 'read' } },
  listVerifications: { method: 'GET', path: V, handler: 'api/list-verifications', status: 200, auth: true, envelope: false, query: 'list', needs: { ports: READ_VERIFICATION, table: 'read' } },
  createVerification: {
    method: 'POST', path: V, handler: 'api/create-verification', status: 201, auth: true, idempotent: true, body: 'CreateVerificationBody',
    needs: { ports: [...READ_VERIFICATION, 'clock', 'ids', 'metrics'], table: 'write' },
  },
  getVerification: { method: 'GET', path: `${V}/{verificationId}`, handler: 'api/get-verification', status: 200, auth: true, needs: { ports: [...READ_VERIFICATION, 'blobs'], table: 'read', images: 'read' } },
  // Not in the spec (an addition): the signed decision receipt of the latest run (docs/explanation/fraud-signals.md).
  getVerificationReceipt: { method: 'GET', path: `${V}/{verificationId}/receipt`, handler: 'api/get-verification-receipt', status: 200, auth: true, needs: { ports: ['flows', 'verifications', 'receipts'], table: 'read' } },
  updateVerification: {
    method: 'PATCH', path: `${V}/{verificationId}`, handler: 'api/update-verification', status: 200, auth: true, body: 'UpdateVerificationBody', actor: true,
    // Setting Double Check on a verification starts its pipeline again.
    needs: { ports: [...READ_VERIFICATION, 'clock', 'ids', 'events', 'outbox', 'workflow'], table: 'write' },
  },
  deleteVerification: {
    method: 'DELETE', path: `${V}/{verificationId}`, handler: 'api/delete-verification', status: 204, auth: true,
    needs: { ports: ['flows', 'verifications', 'clock', 'deletedRetentionDays'], table: 'write' },
  },
  submitVerification: {
    method: 'PUT', path: `${V}/{verificationId}/submit`, handler: 'api/submit-verification', status: 200, auth: true, idempotent: true,
    needs: { ports: [...ACTION, 'workflow'], table: 'write', images: 'read' },
  },
  resubmitVerification: {
    method: 'PUT', path: `${V}/{verificationId}/resubmit`, handler: 'api/resubmit-verification', status: 200, auth: true, idempotent: true, body: 'ActionBody', actor: true,
    needs: { ports: [...ACTION, 'workflow'], table: 'write', images: 'read' },
  },
  approveVerification: {
    method: 'PUT', path: `${V}/{verificationId}/approve`, handler: 'api/approve-verification', status: 200, auth: true, idempotent: true, body: 'ActionBody', actor: true,
    needs: { ports: ACTION, table: 'write', images: 'read' },
  },
  rejectVerification: {
    method: 'PUT', path: `${V}/{verificationId}/reject`, handler: 'api/reject-verification', status: 200, auth: true, idempotent: true, body: 'ActionBody', actor: true,
    needs: { ports: ACTION, table: 'write', images: 'read' },
  },
  cancelVerification: {
    method: 'PUT', path: `${V}/{verificationId}/cancel`, handler: 'api/cancel-verification', status: 200, auth: true, idempotent: true, body: 'ActionBody', actor: true,
    needs: { ports: ACTION, table: 'write', images: 'read' },
  },
  // Not in the spec (an addition): a reviewer clears a sanctions-screening hit of person.screening (or of a re-screen's ScreeningHit) with a comment.
  clearScreeningHit: {
    method: 'POST', path: `${V}/{verificationId}/screening/clear`, handler: 'api/clear-screening-hit', status: 200, auth: true, idempotent: true, body: 'ClearScreeningHitBody', actor: true,
    needs: { ports: [...READ_VERIFICATION, 'blobs', 'clock', 'ids', 'screenings'], table: 'write', images: 'read' },
  },
  createDocument: {
    method: 'POST', path: D, handler: 'api/create-document', status: 201, auth: true, idempotent: true, body: 'CreateDocumentBody',
    needs: { ports: WRITE_DOCUMENT, table: 'write', images: 'write' },
  },
  getDocument: { method: 'GET', path: `${D}/{documentId}`, handler: 'api/get-document', status: 200, auth: true, needs: { ports: ['flows', 'documents', 'blobs'], table: 'read', images: 'read' } },
  updateDocument: {
    method: 'PATCH', path: `${D}/{documentId}`, handler: 'api/update-document', status: 200, auth: true, body: 'UpdateDocumentBody',
    needs: { ports: ['flows', 'documents', 'blobs', 'clock', 'ids', 'events', 'outbox'], table: 'write', images: 'write' },
  },
  deleteDocument: { method: 'DELETE', path: `${D}/{documentId}`, handler: 'api/delete-document', status: 204, auth: true, needs: { ports: ['flows', 'documents', 'blobs'], table: 'write', images: 'write' } },
  downloadDocumentPdf: {
    method: 'GET', path: `${D}/{documentId}/pdf`, handler: 'api/download-document-pdf', status: 200, auth: true,
    // The report draws uploads as pictures (sharp, pdf.js): more memory, those packages beside the bundle; its hash is recorded.
    needs: { ports: ['flows', 'documents', 'verifications', 'blobs', 'reports', 'clock'], table: 'write', images: 'read', memory: 1024, loads: ['pdf-lib'], reportEngines: true },
  },
  // What the liveness check behind a SELFIE showed, with signed links to Rekognition's reference and audit images: the console's liveness panel.
  getDocumentLiveness: {
    method: 'GET', path: `${D}/{documentId}/liveness`, handler: 'api/get-document-liveness', status: 200, auth: true,
    needs: { ports: ['flows', 'documents', 'blobs', 'liveness', 'faceLivenessSessions'], table: 'read', images: 'read' },
  },
  createWebhook: {
    method: 'POST', path: '/api/v1/{flow}/webhooks', handler: 'api/create-webhook', status: 201, auth: true, idempotent: true, body: 'CreateWebhookBody',
    needs: { ports: ['flows', 'webhooks', 'webhookPolicy', 'clock', 'ids'], table: 'write' },
  },
  listWebhooks: { method: 'GET', path: '/api/v1/{flow}/webhooks', handler: 'api/list-webhooks', status: 200, auth: true, needs: { ports: ['flows', 'webhooks'], table: 'read' } },
  deleteWebhook: { method: 'DELETE', path: '/api/v1/{flow}/webhooks/{webhookId}', handler: 'api/delete-webhook', status: 204, auth: true, needs: { ports: ['flows', 'webhooks'], table: 'write' } },
  listWebhookDeliveries: {
    method: 'GET', path: '/api/v1/{flow}/webhooks/{webhookId}/deliveries', handler: 'api/list-webhook-deliveries', status: 200, auth: true,
    needs: { ports: ['flows', 'webhooks'], table: 'read' },
  },
  retryWebhookDelivery: {
    method: 'POST', path: '/api/v1/{flow}/webhooks/{webhookId}/deliveries/{deliveryId}/retry', handler: 'api/retry-webhook-delivery', status: 200, auth: true, idempotent: true,
    needs: { ports: ['flows', 'webhooks', 'webhookSender', 'clock'], table: 'write' },
  },
  // The end-user widget: its credential is the session token in the path.
  getWidgetPage: {
    method: 'GET', path: '/v/{token}', handler: 'widget/page', status: 200, auth: false, contentType: 'text/html',
    // The texts of each language the page speaks, read when first asked for.
    // faceLivenessCapture: the two settings its policy names for a `rekognition` flow (no Rekognition grant).
    needs: { ports: [...SESSION, 'faceLivenessCapture'], table: 'read', items: WIDGET_ITEMS, files: WIDGET_LANGUAGES.map((language) => `src/web/locales/widget.${language}.json` as const) },
  },
  getWidgetQr: {
    method: 'GET', path: '/v/{token}/qr', handler: 'widget/qr', status: 200, auth: false, contentType: 'image/svg+xml',
    needs: { ports: [...SESSION, 'publicBaseUrl'], table: 'read', items: WIDGET_ITEMS },
  },
  // With each document's upload-time reading (PreExtract's, found / not found per field group, no values) while the session is open.
  getWidgetSession: {
    method: 'GET', path: '/v/{token}/session', handler: 'widget/get-session', status: 200, auth: false,
    needs: { ports: [...SESSION, 'extractionCache', 'ruleThresholds'], table: 'read', items: WIDGET_ITEMS },
  },
  uploadWidgetDocument: {
    method: 'POST', path: '/v/{token}/documents', handler: 'widget/upload-document', status: 201, auth: false, body: 'WidgetDocumentBody',
    needs: { ports: [...SESSION, ...WRITE_DOCUMENT], table: 'write', items: WIDGET_ITEMS, images: 'write' },
  },
  // Active liveness (docs/explanation/liveness.md): a challenge the server draws (2–3 actions, timed), then the burst filmed while following it,
  // which becomes the session's SELFIE; the frames are judged in the pipeline.
  createLivenessChallenge: {
    method: 'POST', path: '/v/{token}/liveness/challenge', handler: 'widget/liveness-challenge', status: 201, auth: false,
    // A `rekognition` flow's challenge creates a Face Liveness session; Rekognition writes its images into the bucket as this caller.
    needs: { ports: [...SESSION, 'liveness', 'clock', 'faceLiveness', 'faceLivenessSessions', 'faceLivenessCapture'], table: 'write', items: WIDGET_ITEMS, images: 'write', loads: ['@aws-sdk/client-rekognition'] },
  },
  completeLivenessSession: {
    method: 'POST', path: '/v/{token}/liveness/session/{sessionId}', handler: 'widget/liveness-session', status: 201, auth: false, body: 'LivenessSessionBody',
    needs: {
      ports: [...SESSION, ...WRITE_DOCUMENT, 'liveness', 'faceLiveness', 'faceLivenessSessions', 'faceLivenessMinConfidence'],
      table: 'write',
      items: WIDGET_ITEMS,
      images: 'write',
      loads: ['@aws-sdk/client-rekognition'],
    },
  },
  uploadLivenessFrames: {
    method: 'POST', path: '/v/{token}/liveness/frames', handler: 'widget/liveness-frames', status: 201, auth: false, body: 'LivenessFramesBody',
    needs: { ports: [...SESSION, ...WRITE_DOCUMENT, 'liveness'], table: 'write', items: WIDGET_ITEMS, images: 'write' },
  },
  deleteWidgetDocument: {
    method: 'DELETE', path: '/v/{token}/documents/{documentId}', handler: 'widget/delete-document', status: 204, auth: false,
    needs: { ports: [...SESSION, 'documents', 'blobs'], table: 'write', items: WIDGET_ITEMS, images: 'write' },
  },
  submitWidget: {
    method: 'PUT', path: '/v/{token}/submit', handler: 'widget/submit', status: 200, auth: false,
    needs: { ports: [...SESSION, ...ACTION, 'workflow'], table: 'write', items: WIDGET_ITEMS, images: 'read' },
  },
  getWidgetAsset: {
    method: 'GET', path: '/widget/{asset}', handler: 'widget/asset', status: 200, auth: false, contentType: 'text/javascript',
    // face-liveness.js: the Rekognition mode's capture (React and AWS's component, about 2.7 MB), fetched by the page only in that mode.
    needs: { ports: [], files: ['src/web/asset-texts.ts#widget.js', 'src/web/asset-texts.ts#widget.css', 'src/web/asset-texts.ts#console.js', 'src/web/asset-texts.ts#console.css', 'src/web/face-liveness.ts#face-liveness.js'] },
  },
  // The reviewer console signs in with an API token held by the page, so the page itself is public.
  getConsole: { method: 'GET', path: '/console', handler: 'widget/console', status: 200, auth: false, contentType: 'text/html', needs: { ports: [] } },
  // pdf.js for the console's document viewer, served by the service itself (no CDN; script-src 'self').
  getConsolePdfjs: {
    method: 'GET', path: '/console/pdfjs/{asset}', handler: 'widget/console-pdfjs', status: 200, auth: false, contentType: 'text/javascript',
    needs: { ports: [], files: ['node_modules/pdfjs-dist/legacy/build/pdf.min.mjs', 'node_modules/pdfjs-dist/legacy/build/pdf.worker.min.mjs'] },
  },
  // The API reference: the served OpenAPI document rendered by Swagger UI, which the service serves itself (no CDN; script-src 'self').
  getDocs: { method: 'GET', path: '/docs', handler: 'docs/reference', status: 200, auth: false, contentType: 'text/html', needs: { ports: [] } },
  getDocsAsset: {
    method: 'GET', path: '/docs/{asset}', handler: 'docs/reference', status: 200, auth: false, contentType: 'text/javascript',
    needs: { ports: [], files: ['node_modules/swagger-ui-dist/swagger-ui-bundle.js', 'node_modules/swagger-ui-dist/swagger-ui.css', 'src/web/docs.css', 'src/web/docs-script.ts#docs.js'] },
  },
} as const satisfies Record<string, RouteSpec>;

type Table = typeof ROUTE_TABLE;
/** Every operation of the API, by name. */
export type Operation = keyof Table;

/** `'/a/{flow}/b/{id}'` → `'flow' | 'id'`. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamNames<Rest> : never;
/** The path parameters of a route, typed from its path template: every one is present. */
export type PathParams<P extends string> = { [K in PathParamNames<P>]: string };

/** The ports a route declares (plus the idempotency store when it honours Idempotency-Key). */
export type DeclaredPorts<O extends Operation> = Table[O]['needs']['ports'][number] | (Table[O] extends { idempotent: true } ? 'idempotency' : never);

export type RouteDef = RouteSpec & { operation: Operation };

/** One route by operation: `route.getVerification`. */
export const route = Object.fromEntries(Object.entries(ROUTE_TABLE).map(([operation, r]) => [operation, { operation, ...r }])) as unknown as {
  readonly [O in Operation]: Table[O] & { operation: O };
};

/** Every route, in table order. */
export const routes: readonly RouteDef[] = Object.values(route) as readonly RouteDef[];

/** The ports handed to a route's use case. */
export function portsOf(r: RouteSpec): Port[] {
  return [...new Set<Port>([...r.needs.ports, ...(r.idempotent ? (['idempotency'] as const) : [])])];
}

/** Entry files, each once (List serves two routes). */
export function handlerFiles(): string[] {
  return [...new Set(routes.map((r) => r.handler))];
}

/**
 * What one function needs: the union over the routes it serves (List serves two), so that a
 * function is granted exactly what its routes declare.
 */
export function functionNeeds(file: string): Needs & { ports: Port[] } {
  const served = routes.filter((r) => r.handler === file);
  if (served.length === 0) throw new Error(`no route is served by ${file}`);
  const widest = <T extends string>(values: (T | undefined)[], order: T[]): T | undefined => order.filter((o) => values.includes(o)).pop();
  const items = served.map((r) => r.needs.items);
  return {
    ports: [...new Set(served.flatMap(portsOf))],
    table: widest(served.map((r) => r.needs.table), ['read', 'write']),
    images: widest(served.map((r) => r.needs.images), ['read', 'write']),
    // Limited only when every route it serves is limited.
    ...(items.every((i) => i !== undefined) && { items: [...new Set(items.flat())] }),
    memory: Math.max(...served.map((r) => r.needs.memory ?? 512)),
    loads: [...new Set(served.flatMap((r) => r.needs.loads ?? []))],
    reportEngines: served.some((r) => r.needs.reportEngines === true),
    files: [...new Set(served.flatMap((r) => r.needs.files ?? []))],
  };
}
