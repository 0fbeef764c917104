import * as v from 'valibot';
import { isIso3 } from '../domain/countries';
import { FieldErrorCollector, ValidationError } from '../domain/errors';
import { CONTEXT_TYPES } from '../domain/flow';
import { isCalendarDate } from '../domain/time';
import { WEBHOOK_FORMATS, WEBHOOK_PAYLOADS } from '../domain/webhooks';
import { EVENT_TYPES } from '../events/events';

/**
 * The request schemas: the handlers validate bodies with them and the OpenAPI document is generated
 * from them (scripts/openapi.ts, input side), so every rule stated here is in the contract too.
 * Rules JSON Schema cannot state (they depend on the flow or on the stored record) are checked by
 * the use cases and named in `description`s. Strings are trimmed after their pattern is checked: the
 * service accepts surrounding white space the contract does not invite.
 */

/** "is required" when the key is missing, "must be …" when it has the wrong type. */
const expect = (what: string) => (issue: v.BaseIssue<unknown>) => (issue.input === undefined ? 'is required' : `must be ${what}`);

const Text = (max: number) =>
  v.pipe(v.string(expect('a string')), v.trim(), v.maxLength(max, `must be at most ${max} characters`));
const OptText = (max: number) => v.optional(Text(max));
/** A string that must hold more than white space (`\S` states it in the contract; a blank one is "is required"). */
const Required = (max: number) =>
  v.pipe(v.string(expect('a string')), v.regex(/\S/, 'is required'), v.trim(), v.maxLength(max, `must be at most ${max} characters`));

/**
 * Every ISO 3166-1 alpha-3 code, in either case (`usa` is read as `USA`). A check rather than a
 * pattern, so that a function builds the country list on the first request that sends a country, not
 * on import; the contract states the same rule as a pattern listing every code (scripts/openapi.ts,
 * `countryCodePattern`), and a test holds the two to the same answers.
 */
export const isCountryCode = (code: string): boolean => /^[A-Za-z]{3}$/.test(code) && isIso3(code.toUpperCase());

/**
 * What a name, an address, a document number or a reference may not hold, refused with a 422 naming the
 * field: C0 and C1 control characters (NUL, tabs and line breaks inside the value, terminal escapes) and
 * the line and paragraph separators; the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069) and the direction marks (U+061C, U+200E, U+200F), which make a name read differently
 * in the console, a report or a log than it compares, and which no name or address on a document needs;
 * U+FFFD, the mark that the body was not valid UTF-8 when it reached us (API Gateway and the local front
 * replace undecodable bytes with it), so a name we could not read is refused rather than stored damaged;
 * and lone surrogates (escapes such as `\ud800` that are no character and cannot be written as UTF-8).
 * Joiners (U+200C, U+200D) stay allowed: Persian and Indic names need them.
 *
 * One flagless pattern, a surrogate allowed only as half of a pair, so that it means the same with and
 * without the `u` flag and the contract states the rule the handler applies. Checked after trimming:
 * surrounding white space, line breaks included, is still trimmed away as before.
 */
const PLAIN = '(?:[^\\x00-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff\\ufffd]|[\\ud800-\\udbff][\\udc00-\\udfff])*';
const PLAIN_MESSAGE = 'must not contain control characters, line breaks, bidirectional formatting characters, lone surrogates or U+FFFD (text that was not valid UTF-8)';
/** The plain-text rule, as the contract states it (tests read it). */
export const PLAIN_TEXT_PATTERN = `^${PLAIN}$`;
/** The same rule for a value that must hold more than white space. */
export const REQUIRED_PLAIN_TEXT_PATTERN = `^(?=[\\s\\S]*\\S)${PLAIN}$`;

/** Free text that names or locates a person (see `PLAIN`); empty is allowed. */
const Plain = (max: number) =>
  v.pipe(v.string(expect('a string')), v.trim(), v.maxLength(max, `must be at most ${max} characters`), v.regex(new RegExp(PLAIN_TEXT_PATTERN), PLAIN_MESSAGE));
const OptPlain = (max: number) => v.optional(Plain(max));
/** `Plain` that must hold more than white space: one pattern (the contract keeps one per string), two messages. */
const RequiredPlain = (max: number) =>
  v.pipe(
    v.string(expect('a string')),
    v.trim(),
    v.maxLength(max, `must be at most ${max} characters`),
    v.regex(new RegExp(REQUIRED_PLAIN_TEXT_PATTERN), (issue) => (/\S/.test(String(issue.input)) ? PLAIN_MESSAGE : 'is required')),
  );

const Obj = <T extends v.ObjectEntries>(entries: T) => v.object(entries, expect('an object'));

/**
 * `key`, when given, makes `others` required and not blank. Valibot checks it and the contract states
 * it (`dependentSchemas`), both from this one declaration.
 */
function requiredWith<T extends Record<string, unknown>>(key: keyof T & string, others: readonly (keyof T & string)[], message: string) {
  const blank = (value: unknown) => value === undefined || (typeof value === 'string' && value.trim() === '');
  return [
    v.rawCheck<T>(({ dataset, addIssue }) => {
      if (!dataset.typed || dataset.value[key] === undefined) return;
      for (const other of others) {
        if (blank(dataset.value[other])) addIssue({ message, path: [{ type: 'object', origin: 'value', input: dataset.value, key: other, value: dataset.value[other] }] });
      }
    }),
    v.metadata<T, Record<string, unknown>>({
      dependentSchemas: { [key]: { required: others, properties: Object.fromEntries(others.map((o) => [o, { type: 'string', pattern: '\\S' }])) } },
    }),
  ] as const;
}

const BY_FLOW = (context: string) => `Required when the flow requires ${context} documents (see GET /api/v1/{flow}/configuration).`;

// A missing key is reported with the object's own message, hence the function.
const Root = <T extends v.ObjectEntries>(entries: T) =>
  v.object(entries, (issue) => (issue.input === undefined ? 'is required' : 'The request body must be a JSON object'));

const Image = (description: string) => v.optional(v.pipe(v.string(expect('a base64 string')), v.description(description)));

/**
 * The schemas are built on first use, not on import (valibot's builders cost about 2.4 ms of a cold
 * start): a function whose route takes no body and honours no Idempotency-Key never builds them, and
 * the route table names a body (`BodyName`) instead of holding it.
 */
function build() {
  /** Published as the contract's `CountryCode` component (scripts/openapi.ts). */
  const Country = v.pipe(
    v.string(expect('a string')),
    v.trim(),
    v.check(isCountryCode, 'must be an ISO 3166 alpha-3 country code'),
    v.toUpperCase(),
    v.description('ISO 3166-1 alpha-3 country code, in either case: the service upper-cases it (`usa` is stored as `USA`).'),
  );
  const DATE_MESSAGE = 'must be a date in the format YYYY-MM-DD';
  const DateOfBirth = v.union(
    [
      v.literal(''),
      v.pipe(v.string(), v.isoDate(DATE_MESSAGE), v.check(isCalendarDate, DATE_MESSAGE), v.description('A calendar date, not in the future')),
    ],
    DATE_MESSAGE,
  );
  const DateOfBirthField = v.optional(v.pipe(DateOfBirth, v.description('YYYY-MM-DD, or an empty string for none')));

  const DOC_TYPE = v.description<string, string>('Document type name valid for the flow and this context, accepted for the country, and different from the other document expectation\'s type.');
  const STATE = v.description<string, string>('Required when `address.country` is `USA` (after the update, for Update Verification).');

  /** Create Verification: a group that is given must be complete; whether a group is needed depends on the flow. */
  const CreateVerificationBody = Root({
    vendor_reference: OptPlain(255),
    vendor_state: OptText(1000),
    person: v.optional(v.pipe(Obj({ first_name: RequiredPlain(255), last_name: RequiredPlain(255), date_of_birth: DateOfBirthField }), v.description(BY_FLOW('PHOTO_ID')))),
    address: v.optional(
      v.pipe(
        Obj({ street: RequiredPlain(255), city: RequiredPlain(255), state: v.optional(v.pipe(Plain(255), STATE)), postal_code: RequiredPlain(32), country: Country }),
        v.description(BY_FLOW('PROOF_OF_ADDRESS')),
      ),
    ),
    documents: v.optional(
      Obj({
        photo_id: v.optional(v.pipe(Obj({ type: v.pipe(Required(100), DOC_TYPE), number: RequiredPlain(100), country: Country }), v.description(BY_FLOW('PHOTO_ID')))),
        proof_of_address: v.optional(
          v.pipe(Obj({ type: v.pipe(Required(100), DOC_TYPE), number: OptPlain(100), country: Country }), v.description(BY_FLOW('PROOF_OF_ADDRESS'))),
        ),
      }),
    ),
  });

  const Email = v.pipe(v.string(expect('a string')), v.trim(), v.maxLength(254, 'must be at most 254 characters'), v.email('must be a valid e-mail address'), v.description('Required unless the token is a named reviewer token (for Update Verification: required with `status`, on the same terms). E-mail address of the acting user; a named reviewer token\'s name is the actor: left out, the name is recorded; any other address is refused (422).'));
  const Comment = Required(2000);

  const VerificationStatusInput = v.union(
    [
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(8)),
      v.pipe(
        v.literal('DOUBLE_CHECK'),
        v.transform(() => 5),
      ),
    ],
    'must be an integer from 1 to 8, or DOUBLE_CHECK',
  );
  const StatusField = v.pipe(
    VerificationStatusInput,
    v.description('Verification status 1 to 8 (`DOUBLE_CHECK` is read as 5); comes with `comment` and `email`. Refused (400) while the verification is Canceled.'),
    v.transform((s) => s as 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8),
  );

  /** Update Verification's expected document: a new `type` comes with its number (photo ID) and country. */
  const DocUpdateFields = Obj({ type: v.optional(v.pipe(Text(100), DOC_TYPE)), number: OptPlain(100), country: v.optional(Country) });
  const DocUpdate = (withType: readonly ('number' | 'country')[]) =>
    v.pipe(
      DocUpdateFields,
      ...requiredWith<v.InferOutput<typeof DocUpdateFields>>('type', withType, 'is required'),
      v.description(`A new \`type\` comes with ${withType.map((k) => `\`${k}\``).join(' and ')}.`),
    );

  /** Update Verification: every field optional and merged into the stored data; a status comes with a comment and an e-mail. */
  const UpdateVerificationFields = Root({
    vendor_reference: OptPlain(255),
    vendor_state: OptText(1000),
    person: v.optional(Obj({ first_name: OptPlain(255), last_name: OptPlain(255), date_of_birth: DateOfBirthField })),
    address: v.optional(Obj({ street: OptPlain(255), city: OptPlain(255), state: v.optional(v.pipe(Plain(255), STATE)), postal_code: OptPlain(32), country: v.optional(Country) })),
    documents: v.optional(Obj({ photo_id: v.optional(DocUpdate(['number', 'country'])), proof_of_address: v.optional(DocUpdate(['country'])) })),
    status: v.optional(StatusField),
    comment: v.optional(Comment),
    email: v.optional(Email),
  });
  const UpdateVerificationBody = v.pipe(
    UpdateVerificationFields,
    ...requiredWith<v.InferOutput<typeof UpdateVerificationFields>>('status', ['comment', 'email'], 'is required when status is given'),
  );

  /** Resubmit, Approve, Reject, Cancel. */
  const ActionBody = Root({ comment: Comment, email: Email });
  /**
   * Clearing a screening hit: the list entry (as the rule result's `hits` name it), with the comment and e-mail of every manual action.
   * One pattern each (it bounds the length too), so that the contract states the whole rule: JSON Schema takes one pattern per string.
   */
  const ListId = v.pipe(v.string(expect('a string')), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be a list id such as un-sc or ofac-sdn'), v.description('The list of the hit (`hits[].list` of person.screening)'));
  const EntryId = v.pipe(v.string(expect('a string')), v.regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/, 'must be a list entry id (letters, digits, . _ : -)'), v.description('The entry of the hit (`hits[].entry`): the publisher\'s identifier'));
  const ClearScreeningHitBody = Root({ list: ListId, entry: EntryId, comment: Comment, email: Email });

  const FrontImage = Image('Base64 image of the front side (a PDF only for PROOF_OF_ADDRESS). Required when a document is created: missing or not a valid image, it is refused with 400.');
  const BackImage = Image(
    'Base64 image of the back side: required for the types the flow configures as double-sided for the country (400 when missing), and to be left out for single-sided ones (422 when given); see GET /api/v1/{flow}/configuration.',
  );
  const ContextType = v.picklist(CONTEXT_TYPES, (i) => (i.input === undefined ? 'is required' : `must be one of ${CONTEXT_TYPES.join(', ')}`));
  const TypeId = v.pipe(
    v.number(expect('an integer')),
    v.integer('must be an integer'),
    v.description('Document type id configured for the flow and the context, accepted for the country (400 otherwise; see GET /api/v1/{flow}/configuration).'),
  );
  const VerificationRef = v.pipe(Required(100), v.description('Id of the verification (`ver_…`); it must be Started (400 otherwise).'));

  /** A new document's fields (Create Document and the widget's upload). */
  const NewDocument = Obj({
    context_type: ContextType,
    type: TypeId,
    country: Country,
    front_side_data: FrontImage,
    back_side_data: BackImage,
  });

  const CreateDocumentBody = Root({ verification: VerificationRef, document: NewDocument });

  /** Upload from the widget: the verification is the session's own. */
  const WidgetDocumentBody = Root({ document: NewDocument });

  /** The end of a Rekognition Face Liveness check: the SELFIE document type its reference image is filed as. */
  const LivenessSessionBody = Root({ document: Obj({ type: TypeId, country: Country }) });

  /** The burst of a liveness challenge (src/app/liveness-challenge.ts LIVENESS_LIMITS: counts, bytes and sizes are checked by the use case). */
  const LivenessFramesBody = Root({
    nonce: v.pipe(Required(100), v.description('The nonce of the challenge the frames follow (POST /v/{token}/liveness/challenge); used once, valid 2 minutes.')),
    document: Obj({ type: TypeId, country: Country }),
    frames: v.pipe(
      v.array(
        Obj({
          t: v.pipe(v.number(expect('a number')), v.finite('must be a finite number'), v.minValue(0, 'must be at least 0'), v.description('Capture time in ms (performance.now() or the frame\'s timestamp), increasing.')),
          data: v.pipe(v.string(expect('a base64 string')), v.description('Base64 JPEG or WebP frame, downscaled: at most 100,000 bytes and 1280 pixels a side.')),
        }),
        expect('an array of frames'),
      ),
      v.minLength(10, 'must hold at least 10 frames'),
      v.maxLength(60, 'must hold at most 60 frames'),
      v.description('10 to 60 frames, at least 10 a second over at most 5 s; 4,000,000 bytes together at most.'),
    ),
    signals: v.optional(
      v.pipe(
        Obj({
          device_label: OptPlain(200),
          reported_fps: v.optional(v.pipe(v.number(expect('a number')), v.finite('must be a finite number'), v.minValue(0, 'must be at least 0'), v.maxValue(1000, 'must be at most 1000'))),
        }),
        v.description('What the browser says of its camera: recorded for a reviewer as signals (a virtual camera\'s name), never decisive.'),
      ),
    ),
  });

  const UpdateDocumentBody = Root({
    verification: VerificationRef,
    status: v.optional(
      v.pipe(
        v.number('must be an integer from 1 to 7'),
        v.integer('must be an integer from 1 to 7'),
        v.minValue(1, 'must be an integer from 1 to 7'),
        v.maxValue(7, 'must be an integer from 1 to 7'),
        v.description('Document status 1 to 7; accepted only while the document is Uploaded (400 otherwise).'),
        v.transform((s) => s as 1 | 2 | 3 | 4 | 5 | 6 | 7),
      ),
    ),
    document: v.optional(
      v.pipe(
        Obj({
          context_type: v.optional(ContextType),
          type: v.optional(TypeId),
          country: v.optional(Country),
          front_side_data: FrontImage,
          back_side_data: BackImage,
        }),
        v.description('Only the fields given change, while the document is Uploaded and its verification Started (400 otherwise).'),
      ),
    ),
  });

  const CreateWebhookBody = Root({
    url: v.pipe(
      v.string(expect('a string')),
      v.trim(),
      v.maxLength(2048, 'must be at most 2048 characters'),
      v.url('must be an absolute URL'),
      // Either case, spelled out: the contract's pattern can carry no `i` flag.
      v.regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\//, 'must be an http or https URL'),
      v.description('Where deliveries are POSTed; a deployment may require https (422 otherwise).'),
    ),
    events: v.pipe(
      v.array(v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`), expect('an array of event names')),
      v.minLength(1, 'must name at least one event'),
    ),
    format: v.optional(
      v.pipe(
        v.picklist(WEBHOOK_FORMATS, `must be one of ${WEBHOOK_FORMATS.join(', ')}`),
        v.description('How deliveries are signed: idv (X-Webhook-Signature, the default) or standard-webhooks (webhook-signature).'),
      ),
    ),
    payload: v.optional(
      v.pipe(
        v.picklist(WEBHOOK_PAYLOADS, `must be one of ${WEBHOOK_PAYLOADS.join(', ')}`),
        v.description('thin (the default): ids, type and status only; full: the verification as Get Verification shows it, personal data included.'),
      ),
    ),
  });

  /** The Idempotency-Key header (routes marked `idempotent`). */
  const IdempotencyKey = v.pipe(
    v.string(),
    v.regex(/^[\x21-\x7e]{1,255}$/),
    v.description('1 to 255 visible ASCII characters. A repeat of the same request within 24 hours gets the first response (`Idempotent-Replayed: true`); the same key with another request is 422.'),
  );

  return {
    bodies: { CreateVerificationBody, UpdateVerificationBody, ActionBody, ClearScreeningHitBody, CreateDocumentBody, WidgetDocumentBody, LivenessFramesBody, LivenessSessionBody, UpdateDocumentBody, CreateWebhookBody },
    Country,
    IdempotencyKey,
  };
}

type RequestSchemas = ReturnType<typeof build>;
let built: RequestSchemas | undefined;
/** Every request schema, built the first time one is asked for. */
export const requestSchemas = (): RequestSchemas => (built ??= build());

/** A request body schema, by the name the route table records (`RouteSpec.body`). */
export type BodyName = keyof RequestSchemas['bodies'];
export type BodyOutput<N extends BodyName> = v.InferOutput<RequestSchemas['bodies'][N]>;
export const bodySchema = <N extends BodyName>(name: N): RequestSchemas['bodies'][N] => requestSchemas().bodies[name];

/** Parses a body against a schema; failures become one ValidationError keyed by dotted path. */
export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError({ body: ['The request body must be a JSON object'] });
  }
  const result = v.safeParse(schema, body);
  if (result.success) return result.output;
  const errors = new FieldErrorCollector();
  for (const issue of result.issues) errors.add(v.getDotPath(issue) ?? 'body', issue.message);
  throw new ValidationError(errors.errors);
}
