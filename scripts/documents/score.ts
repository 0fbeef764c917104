import type { ExpectedData } from '../../src/domain/entities';
import type { Extraction, ExtractionInput } from '../../src/ports/extractor';
import { type GeneratedDocument, KIND_TYPES } from './generate';

/** The input an extractor gets for a generated document whose images are stored under `doc-<n>`. */
export function inputFor(doc: GeneratedDocument, id: string, expected: ExpectedData | null): ExtractionInput {
  const t = KIND_TYPES[doc.kind];
  const names: Record<number, string> = { 1: 'Passport', 2: 'Driver License', 3: 'ID Card', 4: 'Utility Bill', 5: 'Bank Statement' };
  const type = doc.kind.endsWith('pdf') ? 'application/pdf' : doc.condition === 'clean' ? 'image/png' : 'image/jpeg';
  return {
    contextType: t.context,
    documentType: { id: t.typeId, name: names[t.typeId] ?? '' },
    country: doc.country,
    front: { key: `${id}/front`, contentType: type },
    back: doc.back ? { key: `${id}/back`, contentType: type } : null,
    compareWith: null,
    expected,
  };
}

/** Expected data as a client would send it for this document (the truth printed on it). */
export function expectedFor(doc: GeneratedDocument): ExpectedData {
  const p = doc.identity;
  return {
    person: { first_name: p.givenNames, last_name: p.surname, date_of_birth: p.dateOfBirth },
    address: { street: p.street, city: p.place.city, state: p.place.state, postal_code: p.place.zip, country: p.place.country },
    documents: {
      photo_id: { type: '', number: p.documentNumber, country: doc.country },
      proof_of_address: { type: '', number: '', country: doc.country },
    },
  };
}

/** The fields scored per kind: dotted extracted_data path → the true value. */
export function truthOf(doc: GeneratedDocument): Record<string, string> {
  // Kinds read by their layout carry their own truth (what they print); the country and issue date are not judged here.
  if (doc.truth) return Object.fromEntries(Object.entries(doc.truth).filter(([path]) => path !== 'address.country' && path !== 'document.issue_date'));
  const p = doc.identity;
  if (doc.kind === 'passport' || doc.kind === 'id-card') {
    return {
      'person.surname': p.surname, 'person.given_names': p.givenNames, 'person.date_of_birth': p.dateOfBirth,
      'document.number': p.documentNumber, 'document.expiration_date': p.expirationDate, 'document.country_code': doc.country,
    };
  }
  if (doc.kind === 'driver-license') {
    return {
      'person.surname': p.surname, 'person.given_names': p.givenNames, 'person.date_of_birth': p.dateOfBirth,
      'document.number': p.documentNumber, 'document.expiration_date': p.expirationDate,
      'address.street': p.street, 'address.city': p.place.city, 'address.state': p.place.state, 'address.zip': p.place.zip,
    };
  }
  return { 'person.full_name': `${p.givenNames} ${p.surname}`, 'address.street': p.street, 'address.zip': p.place.zip };
}

/** Equal once accents, case, spaces and punctuation are dropped (a truth CÔTÉ is read COTE; MARIE-ÈVE is MARIE EVE). */
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().replace(/[^A-Z0-9]/g, '');
const same = (a: string, b: string) => fold(a) === fold(b);

export interface Score {
  read: boolean;
  fields: Record<string, { correct: boolean; confident: boolean }>;
  allCorrect: boolean;
  /** Fields extracted wrong with a confidence at or above `minConfidence`: they would decide a rule wrongly. */
  confidentlyWrong: string[];
}

export function score(doc: GeneratedDocument, extraction: Extraction, minConfidence: number): Score {
  const truth = truthOf(doc);
  const fields: Score['fields'] = {};
  const confidentlyWrong: string[] = [];
  for (const [path, value] of Object.entries(truth)) {
    const [group, key] = path.split('.') as [keyof Extraction['data'], string];
    const got = (extraction.data[group] as Record<string, string>)[key] ?? '';
    const confident = (extraction.confidence[path] ?? 0) >= minConfidence;
    const correct = same(got, value);
    fields[path] = { correct, confident };
    if (!correct && got !== '' && confident) confidentlyWrong.push(path);
  }
  return {
    read: extraction.data.document.identified === 'true',
    fields,
    allCorrect: Object.values(fields).every((f) => f.correct),
    confidentlyWrong,
  };
}
