/**
 * Builds the OpenAPI 3.1 document from THE route table and the valibot request and response
 * schemas. `npm run openapi` writes openapi/openapi.json (checked in, served at
 * GET /api/v1/openapi.json); a test fails when the checked-in file is out of date.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ConversionConfig, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { QUERIES } from '../src/http/query';
import { type Operation, type RouteDef, routes } from '../src/http/routes';
import * as R from '../src/http/response-schemas';
import { DocumentLivenessSchema } from '../src/http/document-liveness-schema';
import type { ValidationError } from '../src/domain/errors';
import { allIso3 } from '../src/domain/countries';
import { bodySchema, isCountryCode, parseBody, requestSchemas } from '../src/http/schemas';

type Json = Record<string, unknown>;

/** Request schemas shared by many bodies, published once under components (the country pattern lists every code). */
const SHARED = { CountryCode: requestSchemas().Country };

const CONVERSION: ConversionConfig = {
  errorMode: 'ignore',
  target: 'draft-2020-12',
  definitions: SHARED,
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  overrideAction: ({ valibotAction, jsonSchema }) => {
    // Valibot's e-mail rule is a regular expression: the contract states it, not the looser `format: email`.
    if (valibotAction.type === 'email') return { ...jsonSchema, format: undefined, pattern: (valibotAction as v.EmailAction<string, undefined>).requirement.source };
    // The country check, as the pattern it is: every code, in either case.
    if (valibotAction.type === 'check' && (valibotAction as v.CheckAction<string, undefined>).requirement === isCountryCode) return { ...jsonSchema, pattern: countryCodePattern() };
    return undefined;
  },
};

/**
 * Every ISO 3166-1 alpha-3 code in either case, as a flagless pattern: JSON Schema patterns take no
 * `i` flag, and the contract states the exact rule the handler applies (src/http/schemas.ts `isCountryCode`).
 */
export function countryCodePattern(): string {
  return `^(?:${allIso3().map((code) => [...code].map((c) => `[${c}${c.toLowerCase()}]`).join('')).join('|')})$`;
}

/**
 * A response schema as JSON Schema; a request schema (`input`) as what a client sends: before
 * trimming, upper-casing and `DOUBLE_CHECK` → 5, which the descriptions mention.
 */
const schema = (s: v.GenericSchema, typeMode?: 'input'): Json => {
  const { $schema: _schema, $defs: _defs, ...rest } = toJsonSchema(s, { ...CONVERSION, ...(typeMode && { typeMode }) }) as Json;
  return JSON.parse(JSON.stringify(rest)) as Json;
};

/**
 * The body of an `actor` route as the handler takes it from any token: `email` is required of other
 * tokens but may be left out with a named reviewer token (its name fills it in, src/http/handler.ts),
 * so the contract lists it as optional, top level and under `dependentSchemas` (Update Verification's
 * `status`), and its description states the rule.
 */
function actorBody(body: Json): Json {
  const withoutEmail = (s: Json): Json => ({ ...s, ...(Array.isArray(s.required) && { required: (s.required as string[]).filter((k) => k !== 'email') }) });
  const out = withoutEmail(body);
  if (out.dependentSchemas) out.dependentSchemas = Object.fromEntries(Object.entries(out.dependentSchemas as Record<string, Json>).map(([k, d]) => [k, withoutEmail(d)]));
  return out;
}

const T = '2026-11-22T10:15:30.123456Z';
const exampleVerification = {
  id: 'ver_01JD8X6Z4Q8R5K2M7N9P3T6V1W',
  url: 'https://api.example.com/v1/v/Q2hhbmdlTWUtdG9rZW4tZXhhbXBsZQ',
  qr_code: 'https://api.example.com/v1/v/Q2hhbmdlTWUtdG9rZW4tZXhhbXBsZQ/qr',
  vendor_reference: 'customer-42',
  vendor_state: null,
  expected_data: {
    person: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-12-10' },
    address: { street: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'USA' },
    documents: { photo_id: { type: 'Passport', number: 'P1234567', country: 'GBR' }, proof_of_address: { type: 'Utility Bill', number: '', country: 'USA' } },
  },
  status_label: 'Started',
  submitted_at: null,
  created_at: T,
  updated_at: T,
  flow: 'Default',
  comments: [],
};
const exampleDocumentCore = {
  id: 'doc_01JD8X7A2B3C4D5E6F7G8H9J0K',
  url_front: 'https://images.s3.eu-west-1.amazonaws.com/documents/ver_01JD8X6Z4Q8R5K2M7N9P3T6V1W/doc_01JD8X7A2B3C4D5E6F7G8H9J0K/img_01JD8X7A2B3C4D5E6F7G8H9J0M-front?X-Amz-Expires=1800',
  url_back: null,
  status_label: 'Uploaded',
  verification_id: exampleVerification.id,
  created_at: T,
  updated_at: T,
  extracted_data: [],
  decisions: [],
  rules: null,
};
const exampleDocument = { ...exampleDocumentCore, document_type: { id: 1, name: 'Passport', type_label: 'Photo ID' }, country: { name: 'United Kingdom', iso2: 'GB', iso3: 'GBR' } };
const exampleHook = { id: 'whk_01JD8X8B2C3D4E5F6G7H8J9K0L', url: 'https://hooks.example.com/idv', events: ['VerificationFinished'], format: 'idv', payload: 'thin', created_at: T };

const exampleDelivery = {
  id: 'dlv_01JD8X9C2D3E4F5G6H7J8K9L0M1A2B3C4D',
  event_id: 'evt_01JD8X9C2D3E4F5G6H7J8K9L0M',
  event_type: 'VerificationFinished',
  status: 'delivered',
  attempts: [{ at: T, status_code: 200, error: null, duration_ms: 84 }],
  next_attempt_at: null,
  created_at: T,
  updated_at: T,
};

/** The documented success body of an operation; its status and content type come from the route table. */
interface Success {
  schema?: v.GenericSchema;
  example?: unknown;
}

const withDocuments = { schema: R.wrapped(R.VerificationWithDocumentsSchema), example: { data: { ...exampleVerification, status_label: 'Approved', documents: [exampleDocument] } } };
const SUCCESS: Record<Operation, Success> = {
  health: { schema: R.HealthSchema, example: { status: 'ok', dependencies: { dynamodb: 'ok' } } },
  getOpenApi: {},
  getCaller: { schema: R.wrapped(R.CallerSchema), example: { data: { name: 'ada.reviewer@example.com', reviewer: true, flows: '*' } } },
  getFlowConfiguration: {
    schema: R.wrapped(R.FlowConfigurationSchema),
    example: {
      data: {
        path: 'default',
        name: 'Default',
        required_contexts: ['PHOTO_ID', 'PROOF_OF_ADDRESS'],
        expire_after_days: 7,
        document_types: [{ id: 3, name: 'ID Card', type_label: 'Photo ID', context_type: 'PHOTO_ID', allowed_countries: ['DEU', 'FRA'], double_sided_countries: ['DEU', 'FRA'], forbidden_countries: ['USA'] }],
      },
    },
  },
  listAllVerifications: { schema: R.VerificationListSchema, example: listExample('/api/v1/verifications') },
  listVerifications: { schema: R.VerificationListSchema, example: listExample('/api/v1/default/verifications') },
  createVerification: { schema: R.wrapped(R.VerificationSchema), example: { data: exampleVerification } },
  getVerification: {
    schema: R.wrapped(R.VerificationFullSchema),
    example: { data: { ...exampleVerification, documents: [exampleDocument], history: [{ id: 'hist_01JD8X6Z4Q8R5K2M7N9P3T6V1X', from_status: null, to_status: 'Started', user: 'system', comment: null, created_at: T, changed_fields: [] }] } },
  },
  getVerificationReceipt: { schema: R.wrapped(R.ReceiptSchema) },
  updateVerification: { schema: R.wrapped(R.VerificationSchema), example: { data: { ...exampleVerification, vendor_state: 'reviewed' } } },
  deleteVerification: {},
  submitVerification: { ...withDocuments, example: { data: { ...exampleVerification, status_label: 'Submitted', submitted_at: T, documents: [exampleDocument] } } },
  resubmitVerification: withDocuments,
  approveVerification: withDocuments,
  rejectVerification: withDocuments,
  cancelVerification: withDocuments,
  clearScreeningHit: withDocuments,
  createDocument: { schema: R.wrapped(R.DocumentSchema), example: { data: exampleDocument } },
  getDocument: { schema: R.wrapped(R.DocumentSchema), example: { data: exampleDocument } },
  updateDocument: { schema: R.wrapped(R.DocumentUpdateSchema), example: { data: exampleDocumentCore } },
  deleteDocument: {},
  getDocumentLiveness: { schema: R.wrapped(DocumentLivenessSchema) },
  downloadDocumentPdf: { schema: R.PdfSchema, example: { data: 'JVBERi0xLjcKJeLjz9MK…' } },
  createWebhook: { schema: R.wrapped(R.WebhookCreatedSchema), example: { data: { ...exampleHook, secret: 'whsec_3q0vXk9pYlR1Zm9yZXhhbXBsZW9ubHk' } } },
  listWebhooks: { schema: R.wrapped(R.ArrayOf(R.WebhookSchema)), example: { data: [exampleHook] } },
  deleteWebhook: {},
  getWidgetPage: {},
  getConsole: {},
  listFlows: { schema: R.wrapped(R.ArrayOf(R.FlowSummarySchema)), example: { data: [{ path: 'default', name: 'Default', required_contexts: ['PHOTO_ID', 'PROOF_OF_ADDRESS'] }] } },
  getWidgetQr: {},
  getWidgetAsset: {},
  getConsolePdfjs: {},
  getDocs: {},
  getDocsAsset: {},
  getWidgetSession: { schema: R.wrapped(R.WidgetSessionSchema) },
  uploadWidgetDocument: { schema: R.wrapped(R.WidgetUploadSchema) },
  deleteWidgetDocument: {},
  submitWidget: { schema: R.wrapped(R.WidgetSubmitSchema) },
  createLivenessChallenge: {
    // The service's own challenge, or in a `rekognition` flow the Face Liveness session the widget's AWS capture streams to.
    schema: R.wrapped(v.union([R.LivenessChallengeSchema, R.FaceLivenessSessionSchema])),
    example: {
      data: {
        nonce: '0mhx3k2a1bq3Zk9rT1vYp0Wc7dLs2Ue8XfAa',
        expires_at: T,
        steps: [{ action: 'turn_left', start_ms: 412, end_ms: 1650 }, { action: 'blink', start_ms: 1650, end_ms: 2921 }, { action: 'open_mouth', start_ms: 2921, end_ms: 4250 }],
        frames: { min_fps: 10, min_frames: 10, max_frames: 60, max_duration_ms: 5000, max_frame_bytes: 100000, max_frame_side: 1280, max_total_bytes: 4000000 },
      },
    },
  },
  uploadLivenessFrames: { schema: R.wrapped(R.LivenessFramesSchema) },
  completeLivenessSession: { schema: R.wrapped(R.LivenessSessionSchema) },
  listWebhookDeliveries: { schema: R.wrapped(R.ArrayOf(R.DeliverySchema)), example: { data: [exampleDelivery] } },
  retryWebhookDelivery: {
    schema: R.wrapped(R.DeliverySchema),
    example: { data: { ...exampleDelivery, attempts: [...exampleDelivery.attempts, { at: T, status_code: 200, error: null, duration_ms: 61 }] } },
  },
};

function listExample(path: string) {
  const base = `https://api.example.com/v1${path}`;
  return {
    data: [exampleVerification],
    links: { first: `${base}?page=1`, last: `${base}?page=1`, prev: null, next: null },
    meta: { current_page: 1, from: 1, last_page: 1, path: base, per_page: 15, to: 1, total: 1 },
  };
}

/** One error an operation can answer: its status, a short name and the body it answers with. */
interface ErrorCase {
  status: number;
  name: string;
  body: Json;
}

const BUSY = 'The service is busy; retry in a moment';
const ACTIONS: Operation[] = ['updateVerification', 'resubmitVerification', 'approveVerification', 'rejectVerification', 'cancelVerification'];
/** The status rules of the use cases (spec, Errors): 400 with these messages. */
const STATE_RULES: Partial<Record<Operation, string[]>> = {
  ...Object.fromEntries(ACTIONS.map((o) => [o, ['Verification is canceled']])),
  submitVerification: ['Verification is not in Started status', 'Not all required documents have been uploaded: missing PROOF_OF_ADDRESS'],
  resubmitVerification: ['Verification is canceled', 'Not all required documents have been uploaded: missing PROOF_OF_ADDRESS'],
  approveVerification: ['Verification is already approved'],
  rejectVerification: ['Verification is already rejected'],
  clearScreeningHit: ['Verification is canceled', 'The hit un-sc 6908555 is already cleared on this verification'],
  updateVerification: ['Verification is canceled', 'Verification is already Approved'],
  createDocument: ["Verification does not belong to flow 'default'", 'Verification is canceled', 'Verification is not in Started status', 'A PHOTO_ID document already exists for this verification; delete it first', "Document type 9 is not allowed for flow 'default'", 'document.front_side_data is not valid base64'],
  updateDocument: ['Document does not belong to the given verification', 'Document is not in Uploaded status (current status: Approved)', 'Verification is not in Started status'],
  downloadDocumentPdf: ['Verification is not in Approved status'],
  uploadWidgetDocument: ['This session is closed: the documents were already submitted, or the verification ended', 'document.front_side_data is not valid base64'],
  deleteWidgetDocument: ['This session is closed: the documents were already submitted, or the verification ended'],
  submitWidget: ['Not all required documents have been uploaded: missing PROOF_OF_ADDRESS'],
  createLivenessChallenge: [
    'This session is closed: the documents were already submitted, or the verification ended',
    'Amazon Rekognition Face Liveness is not available in this deployment: continue without the liveness check (a person will review the selfie)',
  ],
  completeLivenessSession: [
    'Unknown liveness session: start a new check',
    'This liveness session was already completed: start a new check',
    'This liveness check is not finished yet: finish it in the camera view, then send it again',
    'This liveness session expired before the check finished: start a new check',
    'The liveness check kept no picture of the face: start a new check',
    'A SELFIE document already exists for this verification; delete it first',
    'This session is closed: the documents were already submitted, or the verification ended',
    "This flow's liveness check is the service's own challenge: send the frames to /liveness/frames",
    'Amazon Rekognition Face Liveness is not available in this deployment: continue without the liveness check (a person will review the selfie)',
  ],
  uploadLivenessFrames: ['This liveness challenge was already used: ask for a new one', 'This liveness challenge has expired: ask for a new one', 'frames.0.data is not a JPEG or WebP image'],
};
const NOT_FOUND: Record<string, string> = {
  flow: "Flow 'default' not found",
  verificationId: 'Verification not found',
  documentId: 'Document not found',
  webhookId: 'Webhook not found',
  token: 'Session not found',
  asset: 'Not found',
};
/** A body each operation refuses, to show the 422 it gets (the messages are the schema's own). */
const INVALID_BODY: Partial<Record<Operation, unknown>> = {
  createVerification: { person: { first_name: 'Ada' }, address: { street: '1 Main St', city: 'Austin', postal_code: '78701', country: 'XX' } },
  updateVerification: { status: 5 },
  updateDocument: { verification: 'ver_01JD8X6Z4Q8R5K2M7N9P3T6V1W', status: 9 },
  clearScreeningHit: { list: 'un-sc', comment: 'Another person: a different date of birth and nationality' },
};

function validationExample(r: RouteDef): Json {
  let errors: Json = {};
  try {
    parseBody(bodySchema(r.body!), INVALID_BODY[r.operation] ?? {});
  } catch (error) {
    errors = (error as ValidationError).errors;
  }
  return { message: 'The given data was invalid.', errors };
}

/**
 * Every error an operation can answer, from its route record: the bearer token (401; 503 when the
 * authorizer cannot read tokens; 404 for a flow the token may not use), the backing services it
 * touches (503), its path parameters (404; 400 for a resource of another flow), its body (400
 * malformed JSON, 422 validation), Idempotency-Key (400 syntax or still in progress, 422 reused with
 * another request), its use case's status rules (400), a concurrent write that won (400, for an
 * operation that writes), API Gateway's throttling (429, deployed) and 500 for an unexpected error. No operation
 * answers 403: the authorizer allows every token it knows, and other flows are hidden as 404.
 */
export function errorCases(r: RouteDef): ErrorCase[] {
  const cases: ErrorCase[] = [];
  const add = (status: number, name: string, body: Json) => cases.push({ status, name, body });
  const params = [...r.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name as string);
  if (r.body) add(400, 'Malformed JSON', { message: 'Malformed JSON in request body' });
  if (r.idempotent) {
    add(400, 'Idempotency-Key syntax', { message: 'Idempotency-Key must be 1 to 255 visible ASCII characters' });
    add(400, 'Idempotency-Key in progress', { message: 'A request with this Idempotency-Key is still being processed; retry shortly' });
  }
  for (const resource of ['Verification', 'Document'] as const) {
    if (params.includes('flow') && params.includes(`${resource.toLowerCase()}Id`)) add(400, 'Another flow', { message: `${resource} does not belong to flow 'default'` });
  }
  const query = r.query && QUERIES[r.query]();
  if (query?.page) add(400, 'Page', { message: 'page must be a positive integer' });
  if (query?.status) add(400, 'Status filter', { message: 'status must be an integer from 1 to 8' });
  if (query?.search) add(400, 'Search', { message: 'search must be 2 to 100 characters' });
  for (const message of STATE_RULES[r.operation] ?? []) add(400, message, { message });
  // A concurrent write won after the use case's own retries (the spec has no 409).
  if (r.needs.table === 'write') add(400, 'Changed concurrently', { message: 'The resource was changed concurrently; retry the request' });
  if (r.auth) add(401, 'Token', { message: 'Unauthorized' });
  // An unknown Face Liveness session is a 400 that says to start a new check (a state rule above), not a 404.
  for (const param of params.filter((p) => p !== 'sessionId')) add(404, `Unknown ${param}`, { message: NOT_FOUND[param] ?? 'Not found' });
  if (r.auth && !params.includes('flow') && !('ownFlows' in r && r.ownFlows)) add(404, 'Token limited to some flows', { message: 'Not found: this token is limited to some flows; use /api/v1/<flow>/… paths' });
  if (r.body) add(422, 'Validation', validationExample(r));
  if (r.body) add(415, 'Not JSON', { message: 'The request body must be JSON, sent with Content-Type: application/json' });
  if (r.idempotent) add(422, 'Idempotency-Key reused', { message: 'The given data was invalid.', errors: { 'Idempotency-Key': ['was already used for a different request'] } });
  if (r.auth || r.needs.table || r.needs.images) add(503, 'Busy', { message: BUSY });
  // Deployed, API Gateway throttles every method (lib/rest-api.ts) before the service runs.
  add(429, 'Throttled', { message: 'Too Many Requests' });
  if (r.operation === 'createLivenessChallenge') add(429, 'Failed challenges', { message: 'Too many liveness attempts: try again in 95 seconds' });
  add(500, 'Unexpected', { message: 'Internal error' });
  return cases;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request: malformed JSON or Idempotency-Key, a resource of another flow, or an action the current status does not allow',
  401: 'Missing, malformed or unknown bearer token',
  404: 'Flow, resource or session not found (also a flow the token may not use)',
  415: 'A request body sent without `Content-Type: application/json` (a browser sends other types cross-site without a preflight)',
  422: 'Validation error (or an Idempotency-Key reused with another request); `errors` holds the reasons by dotted field path',
  429: 'Deployed only: the stage\'s request rate, or a public widget write\'s lower one, was exceeded; API Gateway answers before the service runs; retry after a pause. A widget session\'s liveness challenges: too many failed in 3 minutes; `Retry-After` says how many seconds to wait',
  500: 'An unexpected error (logged with its request id; the body never carries its details)',
  503: 'A backing service (the table, the image store, the token store) does not answer or is throttling; nothing changed, retry later',
};

function errorResponses(r: RouteDef): Record<string, Json> {
  const responses: Record<string, Json> = {};
  for (const status of [...new Set(errorCases(r).map((c) => c.status))]) {
    const cases = errorCases(r).filter((c) => c.status === status);
    const examples = Object.fromEntries(cases.map((c) => [c.name.replace(/\W+/g, '-').replace(/^-|-$/g, '').toLowerCase(), { summary: c.name, value: c.body }]));
    responses[String(status)] = {
      description: ERROR_TEXT[status],
      content: {
        'application/json': { schema: { $ref: `#/components/schemas/${status === 422 ? 'ValidationError' : 'Error'}` }, examples },
        // A page's unknown link is a page too (the widget's, in plain words); a malformed one stays JSON.
        ...(status === 404 && r.contentType === 'text/html' && { 'text/html': { schema: { type: 'string' } } }),
      },
    };
  }
  return responses;
}

/**
 * OpenAPI links from an operation that creates a resource (POST `…/documents`) to every operation
 * on it (`…/documents/{documentId}…`): the new id comes from the response's `data.id`, the other
 * path parameters from the creating request.
 */
function linksFrom(r: RouteDef): Json | undefined {
  if (r.method !== 'POST') return undefined;
  const links: Record<string, Json> = {};
  for (const target of routes) {
    const id = new RegExp(`^${r.path.replace(/[{}]/g, '\\$&')}/\\{(\\w+)\\}`).exec(target.path)?.[1];
    if (!id) continue;
    const parameters = Object.fromEntries(
      [...target.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, name === id ? '$response.body#/data/id' : `$request.path.${name}`]),
    );
    links[target.operation] = { operationId: target.operation, parameters };
  }
  return Object.keys(links).length > 0 ? links : undefined;
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,100}$' },
    description: name === 'flow' ? 'Flow path name, e.g. `default`' : name === 'token' ? 'Session token of the widget link' : `Identifier (${name})`,
  }));
}

export function buildOpenApi(): Json {
  const paths: Record<string, Json> = {};
  const components: Record<string, Json> = {
    ...(toJsonSchemaDefs(SHARED, { ...CONVERSION, typeMode: 'input' }) as unknown as Record<string, Json>),
    Error: schema(R.ErrorSchema),
    ValidationError: schema(R.ValidationErrorSchema),
  };
  for (const r of routes) {
    const success = SUCCESS[r.operation];
    const responses: Record<string, Json> = {};
    const successName = `${r.operation.charAt(0).toUpperCase()}${r.operation.slice(1)}Response`;
    if (success.schema) components[successName] = schema(success.schema);
    responses[String(r.status)] =
      r.status === 204
        ? { description: 'No content' }
        : r.contentType
          ? { description: 'Success', content: { [r.contentType]: { schema: { type: 'string' } } } }
          : {
            description: 'Success',
            content: {
              'application/json': {
                schema: success.schema ? { $ref: `#/components/schemas/${successName}` } : { type: 'object' },
                ...(success.example !== undefined && { example: success.example }),
              },
            },
          };
    const links = linksFrom(r);
    if (links) responses[String(r.status)] = { ...responses[String(r.status)], links };
    Object.assign(responses, errorResponses(r));
    if (r.operation === 'health') {
      // Its 503 names the dependency that does not answer.
      components.HealthUnavailable = schema(R.HealthUnavailableSchema);
      responses['503'] = {
        description: 'A backing service does not answer; `dependencies` names it',
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/HealthUnavailable' },
            example: { message: 'The service is busy; retry in a moment', dependencies: { dynamodb: 'unavailable' } },
          },
        },
      };
    }
    const request = r.body && bodySchema(r.body);
    const parameters: Json[] = [
      ...pathParameters(r.path),
      ...Object.entries(r.query ? QUERIES[r.query]() : {}).map(([name, s]) => ({ name, in: 'query', required: false, schema: { ...schema(s), ...(name === 'page' && { default: 1 }) } })),
      ...(r.idempotent ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: schema(requestSchemas().IdempotencyKey) }] : []),
    ];
    const operation: Json = {
      operationId: r.operation,
      summary: r.operation.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase()),
      tags: [
        r.path.startsWith('/v/') || r.path.startsWith('/widget/') || r.path === '/console'
          ? 'Widget'
          : r.path.includes('/documents')
            ? 'Documents'
            : r.path.includes('/webhooks')
              ? 'Webhooks'
              : r.auth
                ? 'Verifications'
                : 'Service',
      ],
      ...(parameters.length > 0 && { parameters }),
      ...(request && {
        // A request without a body is read as `{}`: the body is required unless `{}` is a valid one.
        requestBody: { required: !v.is(request, {}), content: { 'application/json': { schema: r.actor ? actorBody(schema(request, 'input')) : schema(request, 'input') } } },
      }),
      responses,
      security: r.auth ? [{ bearer: [] }] : [],
    };
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Identity verification service',
      version: '1.0.0',
      description: 'Verifications and documents (spec: verifications-api.md), flow configuration and webhooks.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    // GET /api/v1/openapi.json replaces it with the service's own base address (src/app/get-openapi.ts).
    servers: [
      {
        url: '{baseUrl}',
        description: 'The service: PUBLIC_BASE_URL when configured, else its API address (with the stage)',
        variables: { baseUrl: { default: 'http://127.0.0.1:3000', description: 'npm start listens here by default' } },
      },
    ],
    tags: [
      { name: 'Verifications', description: 'Verification sessions and their actions' },
      { name: 'Documents', description: 'Images attached to a verification' },
      { name: 'Webhooks', description: 'Signed event deliveries' },
      { name: 'Service', description: 'Health and this document' },
      { name: 'Widget', description: 'The end-user widget; the session token in the path is its credential' },
    ],
    paths,
    components: { schemas: components, securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API token (npm run token)' } } },
  };
}

export const OPENAPI_FILE = join(__dirname, '..', 'openapi', 'openapi.json');

if (require.main === module) {
  writeFileSync(OPENAPI_FILE, `${JSON.stringify(buildOpenApi(), null, 2)}\n`);
  console.log(`Wrote ${OPENAPI_FILE}`);
}
