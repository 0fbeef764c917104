import * as v from 'valibot';
import { isIso3 } from '../domain/countries';
import { FieldErrorCollector, ValidationError } from '../domain/errors';
import { CONTEXT_TYPES } from '../domain/flow';
import { WEBHOOK_FORMATS, WEBHOOK_PAYLOADS } from '../domain/webhooks';
import { EVENT_TYPES } from '../events/events';

/** "is required" when the key is missing, "must be …" when it has the wrong type. */
const expect = (what: string) => (issue: v.BaseIssue<unknown>) => (issue.input === undefined ? 'is required' : `must be ${what}`);

const Text = (max: number) =>
  v.pipe(v.string(expect('a string')), v.trim(), v.maxLength(max, `must be at most ${max} characters`));
const OptText = (max: number) => v.optional(Text(max));
const Country = v.pipe(
  v.string(expect('a string')),
  v.trim(),
  v.toUpperCase(),
  v.check(isIso3, 'must be an ISO 3166 alpha-3 country code'),
);
const Obj = <T extends v.ObjectEntries>(entries: T) => v.object(entries, expect('an object'));

const DocExpectation = Obj({ type: OptText(100), number: OptText(100), country: v.optional(Country) });

const ExpectedDataFields = {
  person: v.optional(Obj({ first_name: OptText(255), last_name: OptText(255), date_of_birth: OptText(10) })),
  address: v.optional(
    Obj({ street: OptText(255), city: OptText(255), state: OptText(255), postal_code: OptText(32), country: v.optional(Country) }),
  ),
  documents: v.optional(Obj({ photo_id: v.optional(DocExpectation), proof_of_address: v.optional(DocExpectation) })),
};

// A missing key is reported with the object's own message, hence the function.
const Root = <T extends v.ObjectEntries>(entries: T) =>
  v.object(entries, (issue) => (issue.input === undefined ? 'is required' : 'The request body must be a JSON object'));

export const CreateVerificationBody = Root({
  vendor_reference: OptText(255),
  vendor_state: OptText(1000),
  ...ExpectedDataFields,
});

const Email = v.pipe(v.string(expect('a string')), v.trim(), v.maxLength(254, 'must be at most 254 characters'), v.email('must be a valid e-mail address'));
const Comment = v.pipe(v.string(expect('a string')), v.trim(), v.nonEmpty('is required'), v.maxLength(2000, 'must be at most 2000 characters'));

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

export const UpdateVerificationBody = Root({
  ...CreateVerificationBody.entries,
  status: v.optional(v.pipe(VerificationStatusInput, v.transform((s) => s as 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8))),
  comment: v.optional(Comment),
  email: v.optional(Email),
});

/** Resubmit, Approve, Reject, Cancel. */
export const ActionBody = Root({ comment: Comment, email: Email });

const ImageData = v.optional(v.string(expect('a base64 string')));
const ContextType = v.picklist(CONTEXT_TYPES, (i) => (i.input === undefined ? 'is required' : `must be one of ${CONTEXT_TYPES.join(', ')}`));
const TypeId = v.pipe(v.number(expect('an integer')), v.integer('must be an integer'));
const VerificationRef = v.pipe(v.string(expect('a string')), v.trim(), v.nonEmpty('is required'), v.maxLength(100, 'must be at most 100 characters'));

/** A new document's fields (Create Document and the widget's upload). */
const NewDocument = Obj({
  context_type: ContextType,
  type: TypeId,
  country: Country,
  front_side_data: ImageData,
  back_side_data: ImageData,
});

export const CreateDocumentBody = Root({ verification: VerificationRef, document: NewDocument });

/** Upload from the widget: the verification is the session's own. */
export const WidgetDocumentBody = Root({ document: NewDocument });

export const UpdateDocumentBody = Root({
  verification: VerificationRef,
  status: v.optional(
    v.pipe(
      v.number('must be an integer from 1 to 7'),
      v.integer('must be an integer from 1 to 7'),
      v.minValue(1, 'must be an integer from 1 to 7'),
      v.maxValue(7, 'must be an integer from 1 to 7'),
      v.transform((s) => s as 1 | 2 | 3 | 4 | 5 | 6 | 7),
    ),
  ),
  document: v.optional(
    Obj({
      context_type: v.optional(ContextType),
      type: v.optional(TypeId),
      country: v.optional(Country),
      front_side_data: ImageData,
      back_side_data: ImageData,
    }),
  ),
});

export const CreateWebhookBody = Root({
  url: v.pipe(
    v.string(expect('a string')),
    v.trim(),
    v.maxLength(2048, 'must be at most 2048 characters'),
    v.url('must be an absolute URL'),
    v.regex(/^https?:\/\//i, 'must be an http or https URL'),
  ),
  events: v.pipe(
    v.array(v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`), expect('an array of event names')),
    v.minLength(1, 'must name at least one event'),
  ),
  format: v.optional(v.picklist(WEBHOOK_FORMATS, `must be one of ${WEBHOOK_FORMATS.join(', ')}`)),
  payload: v.optional(v.picklist(WEBHOOK_PAYLOADS, `must be one of ${WEBHOOK_PAYLOADS.join(', ')}`)),
});

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
