import { findWhereLabelled } from '../../../src/adapters/offline/viz';
import { findValue } from '../../../src/adapters/offline/text-search';

/**
 * Expected data may tell where to look, never what to report: another person's expected values
 * (the decoy) searched on a front must not be found where their field is not printed, while the
 * holder's own values are found under their labels (the test is not vacuous).
 */
describe('expected values found only where their field is printed (decoy)', () => {
  /** A British data page as OCR reads it, labels above values. */
  const page = [
    'PASSPORT', 'Surname / Nom', 'SPECIMEN', 'Given names / Prénoms', 'ANGELA ZOE', 'Nationality / Nationalité', 'BRITISH CITIZEN',
    'Date of birth / Date de naissance', '04 DEC 1988', 'Date of issue / Date de délivrance', '12 MAR 2019', 'Date of expiry / Date d’expiration', '12 MAR 2029',
    'Passport No. / No. du passeport', '999228775', 'Authority / Autorité', 'HMPO', 'Place of birth', 'CROYDON',
  ];
  /** Another person (an Australian specimen's holder), whose values partly appear on the page in other fields. */
  const decoy = { surname: 'CITIZEN', given: 'CROYDON', dob: '2019-03-12', number: '228775', expiry: '1988-12-04' };

  it('a surname, given names, number and dates printed in other fields are not found for the decoy', () => {
    // What a search of the whole page does (the leak): CITIZEN found, trusted.
    expect(findValue(page, decoy.surname)?.confidence).toBe(1);
    expect(findWhereLabelled(page, 'person.surname', decoy.surname)).toBeUndefined();
    expect(findWhereLabelled(page, 'person.given_names', decoy.given)).toBeUndefined();
    expect(findWhereLabelled(page, 'document.number', decoy.number)?.confidence ?? 0).toBeLessThan(0.6);
    expect(findWhereLabelled(page, 'person.date_of_birth', decoy.dob)).toBeUndefined();
    expect(findWhereLabelled(page, 'document.expiration_date', decoy.expiry)).toBeUndefined();
  });

  it("finds the holder's own values under their labels", () => {
    expect(findWhereLabelled(page, 'person.surname', 'SPECIMEN')).toMatchObject({ text: 'SPECIMEN', line: 2, score: 1 });
    expect(findWhereLabelled(page, 'person.given_names', 'ANGELA ZOE')?.score).toBe(1);
    expect(findWhereLabelled(page, 'document.number', '999228775')?.score).toBe(1);
    expect(findWhereLabelled(page, 'person.date_of_birth', '1988-12-04')?.line).toBe(8);
    expect(findWhereLabelled(page, 'document.expiration_date', '2029-03-12')?.line).toBe(12);
  });

  it('reads a licence front by its labels on the same line (LN, FN, DOB), and never a first-name label as the surname', () => {
    const licence = ['DRIVER LICENSE', 'DL D1234567', 'LN MILLER', 'FN JOSEPH JOHN', 'DOB 07/20/1972', 'First name', 'SMITH'];
    expect(findWhereLabelled(licence, 'person.surname', 'MILLER')?.line).toBe(2);
    expect(findWhereLabelled(licence, 'person.surname', 'SMITH')).toBeUndefined();
    expect(findWhereLabelled(licence, 'person.given_names', 'JOSEPH JOHN')?.line).toBe(3);
    expect(findWhereLabelled(licence, 'person.date_of_birth', '1972-07-20', 'MDY')?.line).toBe(4);
    expect(findWhereLabelled(licence, 'document.number', 'D1234567')?.line).toBe(1);
  });
});
