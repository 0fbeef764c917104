import { matchRoute } from '../../../local/server';
import { BadRequestError, ConflictError, DomainError, InvalidStateError, NotFoundError, UnauthorizedError, ValidationError, WrongFlowError } from '../../../src/domain/errors';
import { STATUS_BY_CODE, toErrorResponse } from '../../../src/http/errors';
import { parsePage } from '../../../src/http/query';
import { handlerFiles, routes } from '../../../src/http/routes';
import { parseBody, requestSchemas } from '../../../src/http/schemas';

const { ActionBody, CreateDocumentBody, CreateVerificationBody, UpdateVerificationBody } = requestSchemas().bodies;

describe('error mapping', () => {
  it.each([
    [new NotFoundError('x'), 404],
    [new WrongFlowError('Verification', 'default', 'photo-id'), 400],
    [new InvalidStateError('x'), 400],
    [new BadRequestError('x'), 400],
    [new ConflictError(), 400],
    [new UnauthorizedError(), 401],
    [new ValidationError({ a: ['b'] }), 422],
  ])('maps %p to its status by code', (error, status) => {
    expect(toErrorResponse(error).statusCode).toBe(status);
  });

  it('adds errors to 422 and hides unknown errors behind a 500 message', () => {
    expect(toErrorResponse(new ValidationError({ 'person.first_name': ['is required'] })).body).toEqual({
      message: 'The given data was invalid.',
      errors: { 'person.first_name': ['is required'] },
    });
    const secret = toErrorResponse(new Error('connect ECONNREFUSED 10.0.0.1 with passport P123'));
    expect(secret).toEqual({ statusCode: 500, body: { message: 'Internal error' }, unexpected: true });
  });

  it('has a status for every domain error code', () => {
    expect(Object.keys(STATUS_BY_CODE).sort()).toEqual(['BAD_REQUEST', 'CONFLICT', 'INVALID_STATE', 'NOT_FOUND', 'TOO_MANY_REQUESTS', 'UNAUTHORIZED', 'UNAVAILABLE', 'UNSUPPORTED_MEDIA_TYPE', 'VALIDATION', 'WRONG_FLOW']);
    expect(new DomainError('NOT_FOUND', 'x').code).toBe('NOT_FOUND');
  });
});

describe('request parsing', () => {
  it('parses page as a positive integer', () => {
    expect(parsePage(undefined)).toBe(1);
    expect(parsePage('12')).toBe(12);
    for (const bad of ['0', '-2', '1e3', ' 1', '9999999999']) expect(() => parsePage(bad)).toThrow('page must be a positive integer');
  });

  it('accepts DOUBLE_CHECK for status 5 and trims strings', () => {
    expect(parseBody(UpdateVerificationBody, { status: 'DOUBLE_CHECK', comment: ' c ', email: 'a@b.co' })).toMatchObject({ status: 5, comment: 'c' });
  });

  const run = (schema: Parameters<typeof parseBody>[0], body: unknown) => {
    try {
      parseBody(schema, body);
      return {};
    } catch (e) {
      return (e as ValidationError).errors;
    }
  };

  it('keys errors by dotted path and rejects non-objects', () => {
    expect(run(ActionBody, [])).toEqual({ body: ['The request body must be a JSON object'] });
    expect(run(ActionBody, { comment: '  ', email: 5 })).toEqual({ comment: ['is required'], email: ['must be a string'] });
    expect(run(CreateDocumentBody, { verification: 'v', document: { context_type: 'PHOTO_ID', type: 1.5, country: 'fr' } })).toEqual({
      'document.type': ['must be an integer'],
      'document.country': ['must be an ISO 3166 alpha-3 country code'],
    });
  });

  it('requires the fields of a group that is given, and real calendar dates', () => {
    expect(run(CreateVerificationBody, { person: { last_name: ' ' }, address: { street: 'x' }, documents: { photo_id: {}, proof_of_address: {} } })).toEqual({
      'person.first_name': ['is required'],
      'person.last_name': ['is required'],
      'address.city': ['is required'],
      'address.postal_code': ['is required'],
      'address.country': ['is required'],
      'documents.photo_id.type': ['is required'],
      'documents.photo_id.number': ['is required'],
      'documents.photo_id.country': ['is required'],
      'documents.proof_of_address.type': ['is required'],
      'documents.proof_of_address.country': ['is required'],
    });
    expect(run(CreateVerificationBody, { person: { first_name: 'a', last_name: 'b', date_of_birth: '2001-02-29' } })).toEqual({
      'person.date_of_birth': ['must be a date in the format YYYY-MM-DD'],
    });
    expect(run(CreateVerificationBody, { person: { first_name: 'a', last_name: 'b', date_of_birth: '' } })).toEqual({});
  });

  it('requires number and country with a new photo ID type on update, and comment and e-mail with a status', () => {
    expect(run(UpdateVerificationBody, { documents: { photo_id: { type: 'Passport', number: ' ' } } })).toEqual({
      'documents.photo_id.number': ['is required'],
      'documents.photo_id.country': ['is required'],
    });
    expect(run(UpdateVerificationBody, { status: 2, email: 'a@b.co' })).toEqual({ comment: ['is required when status is given'] });
  });

  it('is not fooled by prototype keys', () => {
    const body = JSON.parse('{"__proto__": {"admin": true}, "comment": "c", "email": "a@b.co"}');
    const parsed = parseBody(ActionBody, body) as Record<string, unknown>;
    expect(parsed).toEqual({ comment: 'c', email: 'a@b.co' });
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('route table', () => {
  it('holds every operation of the spec once, with one handler file per operation', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    // Two functions serve two routes each: List Verifications (one flow, all flows), and the API reference's page and files.
    expect(handlerFiles()).toHaveLength(routes.length - 2);
    expect(routes.filter((r) => !r.auth && !r.path.startsWith('/v/') && !r.path.startsWith('/widget/')).map((r) => r.path)).toEqual(['/health', '/api/v1/openapi.json', '/console', '/console/pdfjs/{asset}', '/docs', '/docs/{asset}']);
  });

  it('matches static segments before placeholders, like API Gateway', () => {
    expect(matchRoute('GET', '/api/v1/verifications')?.route.operation).toBe('listAllVerifications');
    expect(matchRoute('GET', '/api/v1/default/verifications')).toMatchObject({ route: { operation: 'listVerifications' }, params: { flow: 'default' } });
    expect(matchRoute('PUT', '/api/v1/default/verifications/ver_1/approve')?.params).toEqual({ flow: 'default', verificationId: 'ver_1' });
    expect(matchRoute('POST', '/api/v1/default/verifications/ver_1/approve')).toBeUndefined();
    expect(matchRoute('GET', '/api/v1/default/documents/doc_1/pdf')?.route.operation).toBe('downloadDocumentPdf');
  });
});
