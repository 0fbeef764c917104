import * as v from 'valibot';
import { WEBHOOK_FORMATS, WEBHOOK_PAYLOADS } from '../domain/webhooks';
import { CONTEXT_TYPES, LIVENESS_REQUIREMENTS } from '../domain/flow';
import { LIVENESS_ACTIONS } from '../domain/liveness/types';
import { EVENT_TYPES } from '../events/events';

/**
 * The shapes the API answers with, as valibot schemas: the OpenAPI document is generated from them
 * (scripts/openapi.ts) and the integration tests check real responses against that document.
 */
const Timestamp = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/), v.description('ISO 8601 UTC with microseconds'));
const NullableTimestamp = v.nullable(Timestamp);
const Str = v.string();

const VerificationStatusLabel = v.picklist(['Started', 'Submitted', 'Approved', 'Rejected', 'Double Check', 'Expired', 'Canceled', 'Hold']);
const DocumentStatusLabel = v.picklist(['Uploaded', 'In progress', 'Approved', 'Rejected', 'Double check', 'Canceled', 'Extracted']);

export const ExpectedDataSchema = v.strictObject({
  person: v.strictObject({ first_name: Str, last_name: Str, date_of_birth: Str }),
  address: v.strictObject({ street: Str, city: Str, state: Str, postal_code: Str, country: Str }),
  documents: v.strictObject({
    photo_id: v.strictObject({ type: Str, number: Str, country: Str }),
    proof_of_address: v.strictObject({ type: Str, number: Str, country: Str }),
  }),
});

const CommentSchema = v.strictObject({ content: Str, status: VerificationStatusLabel, created_at: Timestamp });
const HistorySchema = v.strictObject({
  id: v.pipe(Str, v.startsWith('hist_')),
  from_status: v.nullable(VerificationStatusLabel),
  to_status: VerificationStatusLabel,
  user: Str,
  comment: v.nullable(Str),
  created_at: Timestamp,
  changed_fields: v.pipe(
    v.array(Str),
    v.description('Expected-data fields (dotted paths, e.g. `person.last_name`) this change altered; empty for a status change alone.'),
  ),
});
const DecisionSchema = v.strictObject({
  id: v.pipe(Str, v.startsWith('dec_')),
  status_label: DocumentStatusLabel,
  validation_workflow: v.picklist(['automatic', 'manual']),
  created_at: Timestamp,
  updated_at: Timestamp,
});
const StringGroup = v.record(Str, Str);
const ExtractedDataSchema = v.union([
  v.strictObject({ person: StringGroup, address: StringGroup, document: StringGroup }),
  v.pipe(v.array(v.unknown()), v.maxLength(0), v.description('empty array before processing')),
]);
const RuleResultSchema = v.strictObject({
  name: Str,
  expected: Str,
  extracted: Str,
  result: v.pipe(v.picklist(['passed', 'failed', 'review', 'not_evaluated']), v.description('not_evaluated: what the rule needs was not read; it decides nothing')),
  reason: Str,
  source: v.optional(v.pipe(Str, v.description('Where the values were read: mrz, barcode, printed, ocr, face_model, index, or "a vs b" for a comparison'))),
  score: v.optional(v.number()),
  threshold: v.optional(Str),
  other_verification_ids: v.optional(v.pipe(v.array(Str), v.description('Duplicate rules: the other verifications of the flow showing the same document or face'))),
  required: v.optional(v.pipe(v.literal(true), v.description('The flow requires this check: not evaluated, it sends the document to review (e.g. selfie.liveness when the flow requires liveness)'))),
  hits: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          list: v.pipe(Str, v.description('The list: ofac-sdn, un-sc')),
          entry: v.pipe(Str, v.description("The publisher's identifier of the entry (OFAC ent_num, UN DATAID): what a clearance names")),
          reference: v.pipe(Str, v.description("The publisher's reference (UN reference number; OFAC ent_num)")),
          name: v.pipe(Str, v.description('The listed name that matched best')),
          programmes: v.array(Str),
          score: v.pipe(v.number(), v.description('0..1 after the qualifiers (date of birth, nationality, document number)')),
          reasons: v.pipe(v.array(Str), v.description('Which name parts matched how, which qualifiers moved the score')),
          cleared: v.optional(v.strictObject({ user: Str, comment: Str, created_at: Timestamp })),
        }),
      ),
      v.maxLength(5),
      v.description('person.screening: the strongest hits at or above the flow\'s threshold (at most 5), each cleared or not'),
    ),
  ),
});
const RuleVersionsSchema = v.strictObject({ rules: Str, thresholds: Str, extractor: Str });
const RulesSchema = v.nullable(
  v.strictObject({ outcome: v.picklist(['passed', 'failed', 'review']), results: v.array(RuleResultSchema), versions: v.optional(RuleVersionsSchema) }),
);

const documentCore = {
  id: v.pipe(Str, v.startsWith('doc_')),
  url_front: v.pipe(Str, v.url(), v.description('Presigned GET link, valid 1800 s')),
  url_back: v.nullable(v.pipe(Str, v.url())),
  status_label: DocumentStatusLabel,
  verification_id: v.pipe(Str, v.startsWith('ver_')),
  created_at: Timestamp,
  updated_at: Timestamp,
  extracted_data: ExtractedDataSchema,
  decisions: v.array(DecisionSchema),
  rules: RulesSchema,
};

/** Update Document answers without document_type and country (spec). */
export const DocumentUpdateSchema = v.strictObject(documentCore);
export const DocumentSchema = v.strictObject({
  ...documentCore,
  document_type: v.strictObject({ id: v.pipe(v.number(), v.integer()), name: Str, type_label: Str }),
  country: v.strictObject({ name: Str, iso2: Str, iso3: Str }),
});

const verificationCore = {
  id: v.pipe(Str, v.startsWith('ver_')),
  url: v.pipe(Str, v.url(), v.description('End-user widget link')),
  qr_code: v.pipe(Str, v.url(), v.description('QR code of the widget link, for mobile access')),
  vendor_reference: v.nullable(Str),
  vendor_state: v.nullable(Str),
  expected_data: ExpectedDataSchema,
  status_label: VerificationStatusLabel,
  submitted_at: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
  flow: v.pipe(Str, v.description('Display name of the flow')),
  comments: v.array(CommentSchema),
};

export const VerificationSchema = v.strictObject(verificationCore);
export const VerificationWithDocumentsSchema = v.strictObject({ ...verificationCore, documents: v.array(DocumentSchema) });
export const VerificationFullSchema = v.strictObject({ ...verificationCore, documents: v.array(DocumentSchema), history: v.array(HistorySchema) });

export const VerificationListSchema = v.strictObject({
  data: v.array(VerificationSchema),
  links: v.strictObject({ first: Str, last: Str, prev: v.nullable(Str), next: v.nullable(Str) }),
  meta: v.strictObject({
    current_page: v.number(),
    from: v.nullable(v.number()),
    last_page: v.number(),
    path: Str,
    per_page: v.literal(15),
    to: v.nullable(v.number()),
    total: v.number(),
  }),
});

export const FlowConfigurationSchema = v.strictObject({
  path: Str,
  name: Str,
  required_contexts: v.array(v.picklist(CONTEXT_TYPES)),
  expire_after_days: v.number(),
  document_types: v.array(
    v.strictObject({
      id: v.number(),
      name: Str,
      type_label: Str,
      context_type: v.picklist(CONTEXT_TYPES),
      allowed_countries: v.array(Str),
      double_sided_countries: v.array(Str),
      forbidden_countries: v.array(Str),
    }),
  ),
});

const webhookCore = {
  id: v.pipe(Str, v.startsWith('whk_')),
  url: Str,
  events: v.array(v.picklist(EVENT_TYPES)),
  format: v.pipe(v.picklist(WEBHOOK_FORMATS), v.description('How deliveries are signed: idv (X-Webhook-Signature) or standard-webhooks (webhook-signature)')),
  payload: v.pipe(v.picklist(WEBHOOK_PAYLOADS), v.description('thin: ids, type and status only; full: the verification as Get Verification shows it')),
  created_at: Timestamp,
};
export const WebhookSchema = v.strictObject(webhookCore);
export const WebhookCreatedSchema = v.strictObject({ ...webhookCore, secret: v.pipe(Str, v.startsWith('whsec_'), v.description('Signing secret, shown only here')) });
export const DeliverySchema = v.strictObject({
  id: v.pipe(Str, v.startsWith('dlv_')),
  event_id: v.pipe(Str, v.startsWith('evt_')),
  event_type: v.picklist(EVENT_TYPES),
  status: v.picklist(['pending', 'delivered', 'failed']),
  attempts: v.array(v.strictObject({ at: Timestamp, status_code: v.nullable(v.number()), error: v.nullable(Str), duration_ms: v.number() })),
  next_attempt_at: v.nullable(Str),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const FlowSummarySchema = v.strictObject({ path: Str, name: Str, required_contexts: v.array(v.picklist(CONTEXT_TYPES)) });

/** A document's upload-time reading in the widget session. */
const WidgetReadingSchema = v.strictObject({
  state: v.pipe(
    v.picklist(['pending', 'read', 'after_submit']),
    v.description('pending: not read yet (the page waits a little, then says it is read after Submit); read: what the run will decide from; after_submit: never read before Submit (a selfie)'),
  ),
  recognised: v.pipe(v.nullable(v.boolean()), v.description('The extractor recognised a document; null until read')),
  machine_readable: v.pipe(
    v.nullable(v.picklist(['valid', 'unclear', 'not_found'])),
    v.description("A photo ID's machine-readable zone or barcode, when the extractor says which source it read: valid (every field from it clear), unclear, not_found; else null"),
  ),
  fields: v.pipe(
    v.array(v.strictObject({ group: v.picklist(['name', 'date_of_birth', 'document_number', 'expiration_date', 'address']), status: v.picklist(['found', 'unclear', 'not_found']) })),
    v.description('Per field group: found (read at or above the rules\' min_confidence), unclear (read below it) or not_found. Never a value: the phone may be shared'),
  ),
});
export const WidgetSessionSchema = v.strictObject({
  status_label: VerificationStatusLabel,
  open: v.boolean(),
  flow: Str,
  appearance: v.pipe(
    v.strictObject({
      intro: v.nullable(v.record(Str, Str)),
      consent: v.nullable(v.record(Str, Str)),
      primary_color: v.nullable(Str),
      return_url: v.nullable(Str),
    }),
    v.description("The flow's page settings (config/flows.json `widget`): intro and consent texts by language (en, es, fr, de), brand colour, return link"),
  ),
  requested_again: v.pipe(
    v.nullable(v.strictObject({ contexts: v.array(v.picklist(CONTEXT_TYPES)), reason: v.nullable(Str) })),
    v.description('Set when a reviewer moved the verification back to Started: the required documents it lacks again, and the comment of that move'),
  ),
  required_contexts: v.array(v.picklist(CONTEXT_TYPES)),
  liveness: v.pipe(
    v.picklist(LIVENESS_REQUIREMENTS),
    v.description("The flow's `checks.liveness`: `required` — the selfie is filmed through a liveness challenge (a still photo goes to a reviewer); `optional`; `off`"),
  ),
  contexts: v.array(
    v.strictObject({
      context_type: v.picklist(CONTEXT_TYPES),
      label: Str,
      required: v.boolean(),
      expected_country: v.pipe(v.nullable(Str), v.description("The issuing country (alpha-3) the verification expects of this context's document, preselected by the page; null for the selfie or when none is expected")),
    }),
  ),
  document_types: v.array(
    v.strictObject({ id: v.number(), name: Str, context_type: v.picklist(CONTEXT_TYPES), allowed_countries: v.array(Str), double_sided_countries: v.array(Str) }),
  ),
  documents: v.array(
    v.strictObject({
      id: Str,
      context_type: v.picklist(CONTEXT_TYPES),
      type: Str,
      country: Str,
      status_label: DocumentStatusLabel,
      reading: v.pipe(
        v.nullable(WidgetReadingSchema),
        v.description('What PreExtract read of it at upload, per field group, never a value (the page says it before Submit); null once the session is closed'),
      ),
    }),
  ),
});
export const WidgetUploadSchema = v.strictObject({ id: Str, status_label: DocumentStatusLabel, context_type: v.picklist(CONTEXT_TYPES) });
export const WidgetSubmitSchema = v.strictObject({ status_label: VerificationStatusLabel });
/** POST /v/{token}/liveness/challenge: what to do, when, and what the burst may weigh. */
export const LivenessChallengeSchema = v.strictObject({
  nonce: v.pipe(Str, v.description('Sent back with the frames; valid until expires_at, once')),
  expires_at: Str,
  steps: v.pipe(
    v.array(v.strictObject({ action: v.picklist(LIVENESS_ACTIONS), start_ms: v.pipe(v.number(), v.description('When the action may start: ms after the first frame')), end_ms: v.pipe(v.number(), v.description('When it must be done by')) })),
    v.description('2 or 3 actions, in the order asked'),
  ),
  frames: v.strictObject({ min_fps: v.number(), min_frames: v.number(), max_frames: v.number(), max_duration_ms: v.number(), max_frame_bytes: v.number(), max_frame_side: v.number(), max_total_bytes: v.number() }),
});
/** POST /v/{token}/liveness/challenge in a `rekognition` flow: the Face Liveness session the widget's AWS capture streams to. */
export const FaceLivenessSessionSchema = v.strictObject({
  provider: v.literal('rekognition'),
  session_id: v.pipe(Str, v.description('The Rekognition session id, sent back to POST /v/{token}/liveness/session/{sessionId} once the capture finished')),
  region: v.pipe(Str, v.description('The AWS region of the session (Face Liveness is offered in some regions only)')),
  expires_at: v.pipe(Str, v.description('The session lives 3 minutes at Rekognition')),
  identity_pool_id: v.optional(
    v.pipe(Str, v.description("The Cognito identity pool whose unauthenticated role may only call StartFaceLivenessSession: the capture's credentials. Absent where the deployment has none (the widget then says the check cannot start)")),
  ),
});
/** POST /v/{token}/liveness/session/{sessionId}: the SELFIE document made from the session's reference image (judged in the pipeline). */
export const LivenessSessionSchema = v.strictObject({ id: Str, status_label: DocumentStatusLabel, context_type: v.literal('SELFIE') });
/** POST /v/{token}/liveness/frames: the SELFIE document made from the burst (judged in the pipeline). */
export const LivenessFramesSchema = v.strictObject({ id: Str, status_label: DocumentStatusLabel, context_type: v.literal('SELFIE'), frames: v.number() });

export const PdfSchema = v.strictObject({ data: v.pipe(Str, v.description('The PDF report, base64')) });
/** GET /api/v1/me: the calling token. */
export const CallerSchema = v.strictObject({
  name: v.pipe(Str, v.description("The token's name; for a reviewer token, the e-mail recorded as the acting user of its actions")),
  reviewer: v.pipe(v.boolean(), v.description('A named reviewer token (`npm run token -- create --reviewer`): actions record its name, never a typed e-mail')),
  flows: v.pipe(v.union([v.literal('*'), v.array(Str)]), v.description('The flows it may use, or `*` for all')),
});
export const HealthSchema = v.strictObject({
  status: v.literal('ok'),
  dependencies: v.pipe(v.record(Str, v.literal('ok')), v.description('Each backing service checked, e.g. `dynamodb`')),
});
/** /health when a backing service does not answer: the usual 503 body plus each dependency's state. */
export const HealthUnavailableSchema = v.strictObject({
  message: Str,
  dependencies: v.pipe(v.record(Str, v.picklist(['ok', 'unavailable'])), v.description('Each backing service checked and whether it answered')),
});
export const ErrorSchema = v.strictObject({ message: Str });
export const ValidationErrorSchema = v.strictObject({
  message: Str,
  errors: v.pipe(v.record(Str, v.array(Str)), v.description('Reasons keyed by dotted field path')),
});

export const ArrayOf = <T extends v.GenericSchema>(item: T) => v.array(item);

const ReceiptDocumentSchema = v.strictObject({
  id: Str,
  context_type: Str,
  images: v.strictObject({ front: v.nullable(Str), back: v.nullable(Str) }),
  extractor: Str,
  extracted_data: v.nullable(ExtractedDataSchema),
  rules: RulesSchema,
});
/** A signed decision receipt (an addition to the spec). */
export const ReceiptSchema = v.strictObject({
  payload: v.strictObject({
    format: v.literal('idv-decision-receipt/1'),
    verification_id: Str,
    flow: Str,
    run: v.number(),
    status_label: Str,
    decided_at: Str,
    documents: v.array(ReceiptDocumentSchema),
  }),
  payload_sha256: v.pipe(Str, v.description('SHA-256 (hex) of the canonical JSON of payload (keys sorted, no spaces): the bytes signed')),
  algorithm: v.literal('ECDSA_SHA_256'),
  signature: v.pipe(Str, v.description('Base64 DER ECDSA P-256 signature over the canonical JSON of payload')),
  key_id: Str,
  public_key: v.pipe(Str, v.description('PEM public key, for convenience: verify with a copy obtained out of band')),
});

/** `{ "data": … }`, the wrapper of every single-resource response. */
export function wrapped<T extends v.GenericSchema>(schema: T) {
  return v.strictObject({ data: schema });
}
