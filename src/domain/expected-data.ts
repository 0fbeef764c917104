import { isIso3 } from './countries';
import type { ExpectedData } from './entities';
import { FieldErrorCollector } from './errors';
import { type ContextType, type Flow, findTypeByName, flowRequires, isCountryAllowed } from './flow';

/** Input shapes after schema parsing (strings trimmed, countries upper-cased). */
export interface PersonInput {
  first_name?: string | undefined;
  last_name?: string | undefined;
  date_of_birth?: string | undefined;
}
export interface AddressInput {
  street?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  postal_code?: string | undefined;
  country?: string | undefined;
}
export interface DocExpectationInput {
  type?: string | undefined;
  number?: string | undefined;
  country?: string | undefined;
}
export interface ExpectedDataInput {
  person?: PersonInput | undefined;
  address?: AddressInput | undefined;
  documents?: { photo_id?: DocExpectationInput | undefined; proof_of_address?: DocExpectationInput | undefined } | undefined;
}

export function emptyExpectedData(): ExpectedData {
  return {
    person: { first_name: '', last_name: '', date_of_birth: '' },
    address: { street: '', city: '', state: '', postal_code: '', country: '' },
    documents: {
      photo_id: { type: '', number: '', country: '' },
      proof_of_address: { type: '', number: '', country: '' },
    },
  };
}

const DOC_KEYS = { photo_id: 'PHOTO_ID', proof_of_address: 'PROOF_OF_ADDRESS' } as const satisfies Record<string, ContextType>;

/**
 * Rules of Create Verification that depend on the flow. The request schema (src/http/schemas.ts)
 * already checked field types and formats, and that a group given is complete.
 * Returns the collector so that validateMerged can add whole-record rules before one 422 is thrown.
 */
export function validateCreate(flow: Flow, input: ExpectedDataInput): FieldErrorCollector {
  const errors = new FieldErrorCollector();
  const needsPhoto = flowRequires(flow, 'PHOTO_ID');
  const needsAddress = flowRequires(flow, 'PROOF_OF_ADDRESS');

  if (input.person === undefined && needsPhoto) errors.add('person', `is required by flow '${flow.path}'`);
  if (input.address === undefined && needsAddress) errors.add('address', `is required by flow '${flow.path}'`);
  if (input.documents !== undefined) {
    for (const [key, ctx] of Object.entries(DOC_KEYS)) {
      if (input.documents[key as keyof typeof DOC_KEYS] === undefined && flowRequires(flow, ctx)) errors.add(`documents.${key}`, `is required by flow '${flow.path}'`);
    }
  }
  validateValues(flow, input, errors);
  return errors;
}

/** Rules of Update Verification on the given (partial) input that depend on the flow or the day. */
export function validateUpdateInput(flow: Flow, input: ExpectedDataInput): FieldErrorCollector {
  const errors = new FieldErrorCollector();
  validateValues(flow, input, errors);
  return errors;
}

/**
 * Value rules shared by create and update: a date of birth not in the future, types valid for the
 * flow and country. Formats (calendar dates, country codes) were checked by the request schema.
 */
function validateValues(flow: Flow, input: ExpectedDataInput, errors: FieldErrorCollector): void {
  const dob = input.person?.date_of_birth;
  if (dob !== undefined && dob !== '' && dob > new Date().toISOString().slice(0, 10)) errors.add('person.date_of_birth', 'must not be in the future');
  for (const [key, ctx] of Object.entries(DOC_KEYS)) {
    const doc = input.documents?.[key as keyof typeof DOC_KEYS];
    if (!doc) continue;
    const country = doc.country;
    if (doc.type) {
      const type = findTypeByName(flow, doc.type, ctx);
      if (!type) {
        const names = flow.document_types.filter((t) => t.context_type === ctx).map((t) => t.name);
        errors.add(`documents.${key}.type`, `must be one of: ${names.join(', ')}`);
      } else if (country && isIso3(country) && !isCountryAllowed(type, country)) {
        errors.add(`documents.${key}.type`, `${type.name} is not accepted for country ${country}`);
      }
    }
  }
}

/**
 * Checks the merged expected data as a whole (after an update): the state rule for USA,
 * distinct document types, and a type still valid for its (possibly changed) country.
 */
export function validateMerged(flow: Flow, data: ExpectedData, errors: FieldErrorCollector): void {
  if (data.address.country === 'USA' && data.address.state === '') {
    errors.add('address.state', 'is required when address.country is USA');
  }
  const { photo_id, proof_of_address } = data.documents;
  if (photo_id.type !== '' && photo_id.type === proof_of_address.type) {
    errors.add('documents.photo_id.type', 'must differ from documents.proof_of_address.type');
  }
  for (const [key, ctx] of Object.entries(DOC_KEYS)) {
    const doc = data.documents[key as keyof typeof DOC_KEYS];
    if (!doc.type || !doc.country) continue;
    const type = findTypeByName(flow, doc.type, ctx);
    if (type && !isCountryAllowed(type, doc.country)) {
      errors.add(`documents.${key}.type`, `${type.name} is not accepted for country ${doc.country}`);
    }
  }
  errors.throwIfAny();
}

/** Builds expected data from a validated create input. */
export function buildExpectedData(input: ExpectedDataInput): ExpectedData {
  return mergeExpectedData(emptyExpectedData(), input);
}

/** Merges only the provided fields into existing expected data (Update Verification). */
/** Dotted paths of the expected-data fields whose value differs between `before` and `after`. */
export function changedFields(before: ExpectedData, after: ExpectedData): string[] {
  const out: string[] = [];
  const walk = (a: Record<string, unknown>, b: Record<string, unknown>, prefix: string) => {
    for (const key of Object.keys(a)) {
      const x = a[key];
      const y = b[key];
      if (typeof x === 'object' && x !== null) walk(x as Record<string, unknown>, y as Record<string, unknown>, `${prefix}${key}.`);
      else if (x !== y) out.push(`${prefix}${key}`);
    }
  };
  walk(before as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>, '');
  return out;
}

export function mergeExpectedData(current: ExpectedData, input: ExpectedDataInput): ExpectedData {
  const pick = <T extends object>(base: T, patch: Partial<Record<keyof T, string | undefined>> | undefined): T => {
    const out = { ...base };
    if (patch) {
      for (const k of Object.keys(base) as (keyof T)[]) {
        const value = patch[k];
        if (value !== undefined) out[k] = value as T[keyof T];
      }
    }
    return out;
  };
  return {
    person: pick(current.person, input.person),
    address: pick(current.address, input.address),
    documents: {
      photo_id: pick(current.documents.photo_id, input.documents?.photo_id),
      proof_of_address: pick(current.documents.proof_of_address, input.documents?.proof_of_address),
    },
  };
}
