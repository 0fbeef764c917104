import { buildExpectedData, mergeExpectedData, validateCreate, validateMerged, validateUpdateInput } from '../../../src/domain/expected-data';
import { ValidationError } from '../../../src/domain/errors';
import { resolveFlows } from '../../../src/domain/flow';
import flowsFile from '../../../config/flows.json';

const [defaultFlow, photoFlow] = resolveFlows(flowsFile).map((f) => f!);

function errorsOf(fn: () => void): Record<string, string[]> {
  try {
    fn();
  } catch (e) {
    if (e instanceof ValidationError) return e.errors;
    throw e;
  }
  return {};
}

describe('validateCreate', () => {
  it('requires person and address in a flow that requires both contexts', () => {
    expect(validateCreate(defaultFlow!, {}).errors).toEqual({
      person: ["is required by flow 'default'"],
      address: ["is required by flow 'default'"],
    });
  });

  it('requires only person in the photo-id flow', () => {
    expect(validateCreate(photoFlow!, {}).errors).toEqual({ person: ["is required by flow 'photo-id'"] });
  });

  it('requires the document groups of the flow once documents are given (a given group\'s fields are the request schema\'s)', () => {
    const errors = validateCreate(defaultFlow!, { person: {}, address: { street: 'x' }, documents: { photo_id: {} } }).errors;
    expect(errors).toEqual({ 'documents.proof_of_address': ["is required by flow 'default'"] });
  });

  it('rejects future dates of birth (the request schema rejects impossible ones)', () => {
    expect(validateCreate(photoFlow!, { person: { first_name: 'a', last_name: 'b', date_of_birth: '2999-01-01' } }).errors).toEqual({
      'person.date_of_birth': ['must not be in the future'],
    });
  });

  it('rejects a type from another context, listing the allowed names', () => {
    const errors = validateCreate(photoFlow!, { person: { first_name: 'a', last_name: 'b' }, documents: { photo_id: { type: 'Utility Bill', number: '1', country: 'FRA' } } }).errors;
    expect(errors).toEqual({ 'documents.photo_id.type': ['must be one of: Passport, Driver License, ID Card'] });
  });
});

describe('validateMerged and merge', () => {
  it('merges only provided fields', () => {
    const base = buildExpectedData({ person: { first_name: 'A', last_name: 'B' }, address: { city: 'Paris', country: 'FRA' } });
    const merged = mergeExpectedData(base, { person: { last_name: 'C' }, address: { country: 'DEU' } });
    expect(merged.person).toEqual({ first_name: 'A', last_name: 'C', date_of_birth: '' });
    expect(merged.address).toMatchObject({ city: 'Paris', country: 'DEU' });
  });

  it('checks the state rule, distinct types and the type/country rule on the merged record', () => {
    const data = buildExpectedData({
      address: { country: 'USA' },
      documents: { photo_id: { type: 'ID Card', country: 'USA' }, proof_of_address: { type: 'ID Card', country: 'USA' } },
    });
    expect(errorsOf(() => validateMerged(defaultFlow!, data, validateUpdateInput(defaultFlow!, {})))).toEqual({
      'address.state': ['is required when address.country is USA'],
      'documents.photo_id.type': ['must differ from documents.proof_of_address.type', 'ID Card is not accepted for country USA'],
    });
  });

});
