import labels from '../../../src/web/locales/console.en.json';
import { fieldLabel, isValueComparison } from '../../../src/web/console-fields';

describe('console field labels', () => {
  it('names each field and rule in words from the locale file', () => {
    expect(fieldLabel('person.first_name', labels)).toBe('First name');
    expect(fieldLabel('documents.photo_id.country', labels)).toBe('Photo ID country');
    expect(fieldLabel('consistency.sources', labels)).toBe('Sources compared');
  });

  it('names a cross-source rule after its field', () => {
    expect(fieldLabel('consistency.person.surname', labels)).toBe('Surname, across sources');
  });

  it('spells out a key the locale file does not name, never showing it dotted', () => {
    expect(fieldLabel('document.security_thread', labels)).toBe('Security thread');
    expect(fieldLabel('consistency.document.hologram', {})).toBe('Hologram');
  });
});

describe('which rules compare two values', () => {
  it('marks names, dates, numbers and countries, read against expected or against another source', () => {
    for (const rule of ['person.last_name', 'person.date_of_birth', 'document.number', 'address.full', 'consistency.person.surname', 'consistency.name_across_documents']) {
      expect([rule, isValueComparison(rule)]).toEqual([rule, true]);
    }
  });

  it('does not mark conditions: the sources row, an age, an expiry, a duplicate, a face', () => {
    for (const rule of ['consistency.sources', 'person.minimum_age', 'document.not_expired', 'proof_of_address.issued_within', 'document.identified', 'duplicate.face', 'selfie.liveness', 'document.selfie_comparison']) {
      expect([rule, isValueComparison(rule)]).toEqual([rule, false]);
    }
  });
});
