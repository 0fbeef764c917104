import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import * as v from 'valibot';
import { buildOpenApi } from '../../scripts/openapi';
import { allIso3 } from '../../src/domain/countries';
import { bodySchema, isCountryCode } from '../../src/http/schemas';
import { type Operation, routes } from '../../src/http/routes';

/**
 * The contract's request bodies are generated from the valibot schemas the handlers validate with.
 * Here both judge the same sample bodies, valid and invalid, and must agree with each other and with
 * the expected verdict: a rule stated in one and not the other fails. Rules that depend on the flow
 * or the stored record are checked later by the use cases and are only described in the contract.
 */
const doc = JSON.parse(JSON.stringify(buildOpenApi()).replaceAll('#/components/schemas/', 'openapi#/$defs/'));
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
ajv.addKeyword('example');
ajv.addSchema({ $id: 'openapi', $defs: doc.components.schemas });

const contractAccepts = (operation: Operation, body: unknown): boolean => {
  const r = routes.find((x) => x.operation === operation)!;
  const schema = doc.paths[r.path][r.method.toLowerCase()].requestBody.content['application/json'].schema;
  return ajv.validate(schema, body) as boolean;
};
/**
 * What the handler accepts from some token: the body as sent, or, on an `actor` route, the body of a
 * named reviewer token, whose name fills in a missing `email` (src/http/handler.ts actingAsReviewer).
 */
const serviceAccepts = (operation: Operation, body: unknown): boolean => {
  const r = routes.find((x) => x.operation === operation)!;
  if (v.safeParse(bodySchema(r.body!), body).success) return true;
  const asReviewer = r.actor && typeof body === 'object' && body !== null && !('email' in body);
  return asReviewer === true && v.safeParse(bodySchema(r.body!), { ...body, email: 'reviewer@example.com' }).success;
};

const person = { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-12-10' };
const address = { street: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'USA' };
const photoId = { type: 'Passport', number: 'P1234567', country: 'GBR' };
const action = { comment: 'Checked by hand', email: 'reviewer@example.com' };
const newDocument = { context_type: 'PHOTO_ID', type: 1, country: 'DEU', front_side_data: 'iVBORw0KGgo=' };

type Samples = { valid: unknown[]; invalid: unknown[] };
const ACTION_SAMPLES: Samples = {
  // No e-mail: a named reviewer token's name is the actor (the contract says so; other tokens get 422).
  valid: [action, { ...action, email: 'first.last+tag@mail.example.co.uk' }, { ...action, unknown_key: 1 }, { comment: action.comment }],
  invalid: [{}, { email: action.email }, { ...action, comment: '   ' }, { ...action, email: 'a@b' }, { ...action, email: 'a b@example.com' }, { ...action, email: 'a@example' }, { ...action, comment: 'x'.repeat(2001) }],
};

const SAMPLES: Partial<Record<Operation, Samples>> = {
  createVerification: {
    valid: [
      {},
      { vendor_reference: 'r', person, address, documents: { photo_id: photoId, proof_of_address: { type: 'Utility Bill', country: 'usa' } } },
      { person: { first_name: 'Ada', last_name: 'Lovelace' } },
      { person: { ...person, date_of_birth: '' } },
      { person: { ...person, date_of_birth: '2000-02-29' } },
      { address: { ...address, country: 'fra', state: undefined } },
    ],
    invalid: [
      { person: { first_name: 'Ada' } },
      { person: { ...person, last_name: '  ' } },
      { person: { ...person, date_of_birth: '2001-02-29' } },
      { person: { ...person, date_of_birth: '1990-2-3' } },
      { person: { ...person, date_of_birth: '10/12/1990' } },
      { address: { ...address, postal_code: undefined } },
      { address: { ...address, country: 'XYZ' } },
      { address: { ...address, country: 'US' } },
      { address: { ...address, country: 840 } },
      { documents: { photo_id: { type: 'Passport', country: 'GBR' } } },
      { documents: { proof_of_address: { type: 'Utility Bill' } } },
      { vendor_reference: 'x'.repeat(256) },
      { person: 'Ada Lovelace' },
    ],
  },
  updateVerification: {
    valid: [
      {},
      { status: 5, ...action },
      { status: 'DOUBLE_CHECK', ...action },
      { status: 5, comment: action.comment },
      { person: { first_name: '' } },
      { documents: { photo_id: { number: 'X1' } } },
      { documents: { photo_id: { type: 'Passport', number: '1', country: 'fra' } } },
      { documents: { proof_of_address: { type: 'Utility Bill', country: 'FRA' } } },
    ],
    invalid: [
      { status: 5 },
      { status: 5, email: action.email },
      { status: 5, comment: action.comment, email: ' ' },
      { status: 9, ...action },
      { status: '5', ...action },
      { status: 5, ...action, comment: ' ' },
      { email: 'not-an-email' },
      { documents: { photo_id: { type: 'Passport' } } },
      { documents: { photo_id: { type: 'Passport', number: ' ', country: 'FRA' } } },
      { documents: { proof_of_address: { type: 'Utility Bill' } } },
      { person: { date_of_birth: '2001-02-29' } },
      { address: { country: 'usa1' } },
    ],
  },
  resubmitVerification: ACTION_SAMPLES,
  approveVerification: ACTION_SAMPLES,
  rejectVerification: ACTION_SAMPLES,
  cancelVerification: ACTION_SAMPLES,
  createDocument: {
    valid: [{ verification: 'ver_1', document: newDocument }, { verification: 'ver_1', document: { ...newDocument, country: 'deu', back_side_data: 'iVBORw0KGgo=' } }],
    invalid: [
      {},
      { verification: 'ver_1' },
      { verification: ' ', document: newDocument },
      { verification: 'ver_1', document: { ...newDocument, type: 1.5 } },
      { verification: 'ver_1', document: { ...newDocument, context_type: 'SELFIES' } },
      { verification: 'ver_1', document: { ...newDocument, country: 'DE' } },
      { verification: 'ver_1', document: { ...newDocument, front_side_data: 7 } },
    ],
  },
  uploadWidgetDocument: {
    valid: [{ document: newDocument }],
    invalid: [{}, { document: { ...newDocument, country: 'Germany' } }],
  },
  clearScreeningHit: {
    valid: [{ list: 'un-sc', entry: '6908555', ...action }, { list: 'ofac-sdn', entry: '36123', comment: action.comment }],
    invalid: [{}, { list: 'UN', entry: '1', ...action }, { list: 'un-sc', entry: ' ', ...action }, { list: 'un-sc', entry: '1', email: action.email }],
  },
  uploadLivenessFrames: {
    valid: [
      { nonce: 'n1', document: { type: 6, country: 'DEU' }, frames: Array.from({ length: 10 }, (_, i) => ({ t: i * 100, data: 'AAAA' })) },
      { nonce: 'n1', document: { type: 6, country: 'deu' }, frames: Array.from({ length: 60 }, (_, i) => ({ t: i * 80, data: 'AAAA' })), signals: { device_label: 'FaceTime HD Camera', reported_fps: 30 } },
    ],
    invalid: [
      {},
      { nonce: 'n1', document: { type: 6, country: 'DEU' }, frames: Array.from({ length: 9 }, (_, i) => ({ t: i * 100, data: 'AAAA' })) },
      { nonce: 'n1', document: { type: 6, country: 'DEU' }, frames: Array.from({ length: 61 }, (_, i) => ({ t: i * 80, data: 'AAAA' })) },
      { nonce: 'n1', document: { type: 6, country: 'DEU' }, frames: Array.from({ length: 10 }, (_, i) => ({ t: -i, data: 'AAAA' })) },
      { nonce: 'n1', document: { type: 6, country: 'DEU' }, frames: Array.from({ length: 10 }, (_, i) => ({ t: i * 100, data: 'AAAA' })), signals: { reported_fps: -1 } },
    ],
  },
  completeLivenessSession: {
    valid: [{ document: { type: 6, country: 'DEU' } }, { document: { type: 6, country: 'deu' } }],
    invalid: [{}, { document: { type: 6 } }, { document: { type: '6', country: 'DEU' } }, { document: { type: 6, country: 'Germany' } }],
  },
  updateDocument: {
    valid: [{ verification: 'ver_1' }, { verification: 'ver_1', status: 3 }, { verification: 'ver_1', document: { country: 'fra' } }],
    invalid: [{}, { verification: 'ver_1', status: 8 }, { verification: 'ver_1', status: 2.5 }, { verification: 'ver_1', document: { country: 'xx' } }],
  },
  createWebhook: {
    valid: [{ url: 'https://hooks.example.com/idv', events: ['VerificationFinished'] }, { url: 'HTTP://hooks.example.com:8080/idv?x=1', events: ['VerificationCanceled'] }],
    invalid: [
      { url: 'https://hooks.example.com/idv', events: [] },
      { url: 'https://hooks.example.com/idv', events: ['Nope'] },
      { events: ['VerificationFinished'] },
      { url: 'ftp://hooks.example.com/idv', events: ['VerificationFinished'] },
      { url: 'hooks.example.com/idv', events: ['VerificationFinished'] },
    ],
  },
};

describe('request bodies: the contract and the valibot schemas agree', () => {
  it('has samples for every operation that takes a body', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(routes.filter((r) => r.body).map((r) => r.operation).sort());
  });

  it.each(Object.entries(SAMPLES))('%s: the same verdict on every sample', (operation, samples) => {
    const verdicts = [...samples!.valid.map((body) => ({ body, expected: true })), ...samples!.invalid.map((body) => ({ body, expected: false }))].map(({ body, expected }) => ({
      body: JSON.stringify(body),
      expected,
      contract: contractAccepts(operation as Operation, body),
      service: serviceAccepts(operation as Operation, body),
    }));
    expect(verdicts.filter((x) => x.contract !== x.expected || x.service !== x.expected)).toEqual([]);
  });

  it('asks the acting e-mail of the five action bodies unless the token is a named reviewer token, and says so', () => {
    const body = (operation: Operation) => {
      const r = routes.find((x) => x.operation === operation)!;
      return doc.paths[r.path][r.method.toLowerCase()].requestBody.content['application/json'].schema;
    };
    for (const operation of ['resubmitVerification', 'approveVerification', 'rejectVerification', 'cancelVerification'] as const) {
      expect([operation, body(operation).required]).toEqual([operation, ['comment']]);
      expect(body(operation).properties.email.description).toMatch(/^Required unless the token is a named reviewer token/);
    }
    expect(body('updateVerification').dependentSchemas.status.required).toEqual(['comment']);
    expect(body('updateVerification').properties.email.description).toMatch(/^Required unless the token is a named reviewer token/);
    // The handler without a reviewer token still asks for it.
    expect(v.safeParse(bodySchema(routes.find((x) => x.operation === 'approveVerification')!.body!), { comment: action.comment }).success).toBe(false);
  });

  it('states the country list, in either case, once', () => {
    expect(contractAccepts('createDocument', { verification: 'ver_1', document: { ...newDocument, country: 'gBr' } })).toBe(true);
    expect(doc.components.schemas.CountryCode.description).toMatch(/upper-cases/);
  });

  it("states the handler's country check as a pattern that gives the same answer for every code, in any case, and for near misses", () => {
    const pattern = new RegExp(doc.components.schemas.CountryCode.pattern);
    const samples = allIso3().flatMap((c) => [c, c.toLowerCase(), `${c[0]}${c.slice(1).toLowerCase()}`, c.slice(0, 2), `${c}A`, ` ${c}`]);
    // Letters whose upper case is an ASCII letter (dotless ı → I, long ſ → S), letters outside ASCII, codes no longer assigned.
    samples.push('ıta', 'ſwe', 'ÜSA', 'usa\n', 'XKX', 'ANT', 'ZZZ', '', 'U1A');
    const disagreements = samples.filter((s) => pattern.test(s) !== isCountryCode(s));
    expect(disagreements).toEqual([]);
    expect(samples.filter((s) => isCountryCode(s)).length).toBe(3 * allIso3().length);
  });

  it('requires a body only where an empty one is refused (Update Document, not Update Verification)', () => {
    const required = (operation: Operation) => {
      const r = routes.find((x) => x.operation === operation)!;
      return doc.paths[r.path][r.method.toLowerCase()].requestBody.required;
    };
    expect(required('updateDocument')).toBe(true);
    expect(required('updateVerification')).toBe(false);
    expect(required('createDocument')).toBe(true);
  });

  it('is stricter than the service only where it asks for the plain form: no surrounding white space (trimmed), a URI without spaces', () => {
    for (const [operation, body] of [
      ['cancelVerification', { ...action, email: ' reviewer@example.com ' }],
      ['createDocument', { verification: 'ver_1', document: { ...newDocument, country: ' deu ' } }],
      ['createWebhook', { url: 'https://hooks.example.com/a b', events: ['VerificationFinished'] }],
    ] as const) {
      expect([contractAccepts(operation, body), serviceAccepts(operation, body)]).toEqual([false, true]);
    }
  });
});

describe('parameters generated from the schemas the handlers use', () => {
  const list = doc.paths['/api/v1/{flow}/verifications'].get.parameters;
  const create = doc.paths['/api/v1/{flow}/verifications'].post.parameters;

  it('bounds page as parsePage does', () => {
    expect(list.find((p: { name: string }) => p.name === 'page').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 999_999_999, default: 1 });
  });

  it('states the Idempotency-Key syntax the handler checks', () => {
    const key = create.find((p: { name: string }) => p.name === 'Idempotency-Key').schema;
    const accepts = (value: string) => ajv.validate(key, value);
    expect([accepts('order-42'), accepts('x'.repeat(255)), accepts(''), accepts('x'.repeat(256)), accepts('has space'), accepts('é')]).toEqual([true, true, false, false, false, false]);
  });
});
