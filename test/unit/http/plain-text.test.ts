import Ajv2020 from 'ajv/dist/2020';
import { ValidationError } from '../../../src/domain/errors';
import { bodySchema, PLAIN_TEXT_PATTERN, parseBody, REQUIRED_PLAIN_TEXT_PATTERN } from '../../../src/http/schemas';
import { buildOpenApi } from '../../../scripts/openapi';

/**
 * Names, addresses, document numbers and the vendor reference are shown to reviewers, printed in reports
 * and compared with what a document says: characters that hide or reorder text, or that mark a body we
 * could not decode, are refused with a 422 naming the field.
 */
const MESSAGE = /must not contain control characters/;

const HOSTILE: [string, string][] = [
  ['NUL', 'Ada\u0000Lovelace'],
  ['an escape sequence', 'Ada\u001b[31m'],
  ['a line break inside', 'Ada\nLovelace'],
  ['a tab inside', 'Ada\tLovelace'],
  ['DEL', 'Ada\u007f'],
  ['a C1 control (NEL)', 'Ada\u0085Lovelace'],
  ['a C1 control (CSI)', 'Ada\u009b'],
  ['a line separator', 'Ada\u2028Lovelace'],
  ['the right-to-left override', 'Ada\u202eecalevol'],
  ['the left-to-right embedding', '\u202aAda'],
  ['the pop directional formatting', 'Ada\u202c'],
  ['the right-to-left isolate', 'Ada\u2067x\u2069'],
  ['the first strong isolate', '\u2068Ada'],
  ['the right-to-left mark', 'Ada\u200f'],
  ['the left-to-right mark', '\u200eAda'],
  ['the Arabic letter mark', 'Ada\u061c'],
  ['a lone high surrogate', 'Ada\ud800'],
  ['a lone low surrogate', '\udc00Ada'],
  ['two high surrogates', 'Ada\ud800\ud800'],
  ['a reversed pair', 'Ada\udc00\ud800'],
  ['the replacement character', 'Ad\ufffda'],
  ['bytes that were not UTF-8, decoded as the local front and API Gateway decode them', Buffer.from([0x41, 0x64, 0xe9, 0x61]).toString('utf8')],
];

const ACCEPTED = ['Ada Lovelace', "O'Brien-Smith", 'José Ñúñez', 'Łódź', 'Müller', '王小明', 'محمد', 'שרה', 'Ольга', 'Ⅻ', 'Emoji 😀 ok', 'می\u200cخواهم', 'क्\u200dष', '  Ada  '];

const errorsOf = (name: 'CreateVerificationBody' | 'UpdateVerificationBody', body: unknown): Record<string, string[]> => {
  try {
    parseBody(bodySchema(name), body);
    return {};
  } catch (e) {
    if (e instanceof ValidationError) return e.errors;
    throw e;
  }
};

const person = { first_name: 'Ada', last_name: 'Lovelace' };
const address = { street: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'USA' };
const photoId = { type: 'Passport', number: 'P1', country: 'GBR' };
const proof = { type: 'Utility Bill', number: 'B1', country: 'USA' };

/** Every identity field, as Create Verification and Update Verification take it. */
const FIELDS: [string, (value: string) => Record<string, unknown>][] = [
  ['person.first_name', (x) => ({ person: { ...person, first_name: x } })],
  ['person.last_name', (x) => ({ person: { ...person, last_name: x } })],
  ['address.street', (x) => ({ address: { ...address, street: x } })],
  ['address.city', (x) => ({ address: { ...address, city: x } })],
  ['address.state', (x) => ({ address: { ...address, state: x } })],
  ['address.postal_code', (x) => ({ address: { ...address, postal_code: x } })],
  ['documents.photo_id.number', (x) => ({ documents: { photo_id: { ...photoId, number: x } } })],
  ['documents.proof_of_address.number', (x) => ({ documents: { proof_of_address: { ...proof, number: x } } })],
  ['vendor_reference', (x) => ({ vendor_reference: x })],
];

describe('names, addresses and references: plain text only', () => {
  describe.each(FIELDS)('%s', (field, body) => {
    it.each(HOSTILE)('refuses %s with a 422 naming the field (create and update)', (_what, value) => {
      expect(errorsOf('CreateVerificationBody', body(value))).toEqual({ [field]: [expect.stringMatching(MESSAGE)] });
      expect(errorsOf('UpdateVerificationBody', body(value))).toEqual({ [field]: [expect.stringMatching(MESSAGE)] });
    });

    it('accepts names in any script, with joiners, emoji and surrounding white space (trimmed)', () => {
      for (const value of ACCEPTED) expect(errorsOf('CreateVerificationBody', body(value))).toEqual({});
    });
  });

  it('still answers "is required" for a blank required field, and trims a trailing line break as before', () => {
    expect(errorsOf('CreateVerificationBody', { person: { ...person, first_name: ' \n ' } })).toEqual({ 'person.first_name': ['is required'] });
    expect(parseBody(bodySchema('CreateVerificationBody'), { person: { ...person, first_name: 'Ada\r\n' } })).toMatchObject({ person: { first_name: 'Ada' } });
  });

  it('leaves free text that is not an identity (vendor_state, comments) as it was', () => {
    expect(errorsOf('CreateVerificationBody', { vendor_state: 'line 1\nline 2\t\u202e' })).toEqual({});
  });
});

describe('the contract states the same rule', () => {
  const openapi = buildOpenApi() as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
  const body = (path: string, method: string) => JSON.stringify(openapi.paths[path]?.[method]?.requestBody);
  const count = (text: string) => text.split(JSON.stringify(PLAIN_TEXT_PATTERN)).length - 1 + text.split(JSON.stringify(REQUIRED_PLAIN_TEXT_PATTERN)).length - 1;

  it('publishes the pattern on every identity field of both bodies', () => {
    // Create: 9 fields; Update: 9 fields (other bodies may use it too).
    expect(count(body('/api/v1/{flow}/verifications', 'post'))).toBe(9);
    expect(count(body('/api/v1/{flow}/verifications/{verificationId}', 'patch'))).toBe(9);
  });

  it.each([
    ['without the u flag (the handler)', ''],
    ['with the u flag (Ajv, most JSON Schema validators)', 'u'],
  ])('gives the same answers %s', (_mode, flags) => {
    const plain = new RegExp(PLAIN_TEXT_PATTERN, flags);
    const required = new RegExp(REQUIRED_PLAIN_TEXT_PATTERN, flags);
    for (const [, value] of HOSTILE) {
      expect(plain.test(value)).toBe(false);
      expect(required.test(value)).toBe(false);
    }
    for (const value of ACCEPTED) {
      expect(plain.test(value.trim())).toBe(true);
      expect(required.test(value)).toBe(true);
    }
    expect(plain.test('')).toBe(true);
    expect(required.test('  ')).toBe(false);
  });

  it('compiles under strict Ajv', () => {
    const ajv = new Ajv2020({ strict: true });
    expect(ajv.validate({ type: 'string', pattern: REQUIRED_PLAIN_TEXT_PATTERN }, 'Ada\u202e')).toBe(false);
    expect(ajv.validate({ type: 'string', pattern: REQUIRED_PLAIN_TEXT_PATTERN }, 'Ada 😀')).toBe(true);
  });
});
