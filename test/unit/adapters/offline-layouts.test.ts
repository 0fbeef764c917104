import { nameValue } from '../../../src/adapters/offline/layouts/lines';
import { cityLine, fillAddress, type PlacedLine } from '../../../src/adapters/offline/address';
import { frontChecks, printedReadings, readFront } from '../../../src/adapters/offline/layouts/front';
import { issueDateOf } from '../../../src/adapters/offline/layouts/letter';
import { dvlaSupport } from '../../../src/adapters/offline/layouts/uk-licence';
import type { VizLine } from '../../../src/adapters/offline/viz';
import type { ExpectedData } from '../../../src/domain/entities';
import { crossSource } from '../../../src/domain/consistency';
import { emptyExtractedData, type Reading } from '../../../src/domain/rules';
import ruleThresholds from '../../../config/rules.json';

/**
 * The layout readers (src/adapters/offline/layouts/) on placed OCR lines as the detector and
 * recogniser give them: fields by their numbers and labels, the checks a card carries, and proof of
 * address read whole in four languages. Pure functions, no engine.
 */

/** A line at (x, y) of height h, 0.6·h a character. */
const at = (x: number, y: number, text: string, h = 24, mean = 0.95): VizLine => ({ text, mean, left: x, top: y, right: x + Math.round(text.length * h * 0.6), bottom: y + h });
const fields = (lines: VizLine[], country: string) => Object.fromEntries(readFront(lines, country).map((r) => [r.field, r.value]));

describe('EU and UK licences: the numbered fields of Directive 2006/126/EC', () => {
  it('reads a German licence by its field numbers, several fields on one row kept apart', () => {
    const lines = [
      at(300, 40, 'FÜHRERSCHEIN', 34), at(310, 120, '1. KÖNIG'), at(310, 170, '2. JONAS FELIX'), at(310, 220, '3. 01.05.1957 KÖLN'),
      at(310, 270, '4a. 23.10.2022'), at(610, 270, '4c. STADT KÖLN'), at(310, 320, '4b. 22.10.2037'), at(310, 370, '5. B072RRE2I55'), at(310, 560, '9. AM/B1/B', 20),
    ];
    expect(fields(lines, 'DEU')).toEqual({
      'person.surname': 'KONIG', 'person.given_names': 'JONAS FELIX', 'person.date_of_birth': '1957-05-01', 'document.issue_date': '2022-10-23',
      'document.expiration_date': '2037-10-22', 'document.issuing_entity': 'STADT KOLN', 'document.number': 'B072RRE2I55',
    });
  });

  it('reads a UK licence: the DVLA number without its issue number, the one-line address of field 8', () => {
    const lines = [
      at(310, 120, '1. EVANS'), at(310, 170, '2. SARAH GRACE'), at(310, 220, '3. 05.07.1985 UNITED KINGDOM'), at(310, 270, '4a. 01.02.2020'), at(610, 270, '4c. DVLA'),
      at(310, 320, '4b. 31.01.2030'), at(310, 370, '5. EVANS857055SG9AB  35'), at(310, 420, '8. 122 BURNS CRESCENT, EDINBURGH, EH1 9GP', 20),
    ];
    const read = fields(lines, 'GBR');
    expect(read).toMatchObject({ 'person.surname': 'EVANS', 'document.number': 'EVANS857055SG9AB', 'person.date_of_birth': '1985-07-05', 'address.street': '122 BURNS CRESCENT', 'address.city': 'EDINBURGH', 'address.zip': 'EH1 9GP' });
    expect(frontChecks(readFront(lines, 'GBR'), 'GBR', '2026-11-27').supported).toEqual(new Set(['document.number', 'person.date_of_birth', 'person.surname']));
  });

  it('reads a date whose boxes overlap (a digit read twice) with its four-digit year, not a two-digit one', () => {
    const lines = [at(330, 169, '1.BECKER', 27), at(332, 371, '4b.2', 28), at(392, 371, '26.02.2032', 28)];
    expect(fields(lines, 'DEU')['document.expiration_date']).toBe('2032-02-26');
  });

  it('reads a photographed EU front: a period read as 0 ("30"), a date cut into two overlapping boxes, a field number glued to its value', () => {
    const box = (text: string, left: number, right: number, top: number, bottom: number): VizLine => ({ text, mean: 0.97, left, right, top, bottom });
    const german = [
      box('1.BECKER', 432, 560, 251, 280), box('30', 434, 462, 352, 376), box('01.05.1957KOLN', 470, 650, 350, 377),
      box('4b.', 428, 445, 455, 468), box('26.02.20', 455, 527, 450, 471), box('2.2032', 516, 573, 451, 473),
    ];
    expect(fields(german, 'DEU')).toMatchObject({ 'person.date_of_birth': '1957-05-01', 'document.expiration_date': '2032-02-26' });
    const french = [at(424, 253, '1BLANCHARD', 28), at(423, 302, '2MARIE', 28), at(422, 401, '4a13.11.2018', 24), at(421, 450, '4b.25.09.2028', 24), at(419, 499, '5326319083676', 24)];
    expect(fields(french, 'FRA')).toMatchObject({ 'document.issue_date': '2018-11-13', 'document.expiration_date': '2028-09-25', 'document.number': '326319083676' });
    // A number whose state gives it no fixed shape is not guessed from a glued 5.
    expect(fields([at(419, 499, '5326319083676', 24)], 'DEU')['document.number']).toBeUndefined();
  });

  it("reads field 8 whose value OCR glued to the field number's period (8.138VICTORIAROAD,EDINBURGH,EH19GP)", () => {
    expect(fields([at(330, 474, '8.138VICTORIAROAD,EDINBURGH,EH19GP', 24)], 'GBR')).toMatchObject({ 'address.street': '138 VICTORIAROAD', 'address.city': 'EDINBURGH', 'address.zip': 'EH1 9GP' });
  });

  it('supports nothing when the driver number encodes another birth date or surname', () => {
    expect(dvlaSupport('EVANS857055SG9AB', 'EVANS', '1985-07-06', 'SARAH GRACE')).toEqual({ number: false, surname: true, dateOfBirth: false, initials: true });
    expect(dvlaSupport('EVANS857055SG9AB', 'EVAMS', '1985-07-05', 'SARAH')).toMatchObject({ number: false, surname: false, dateOfBirth: true });
    // A woman's month carries 50: 57 is July.
    expect(dvlaSupport('EVANS857055SG9AB', 'EVANS', '1985-07-05', 'SARAH').number).toBe(true);
  });

  it('finds dates out of order implausible, whatever two reads say', () => {
    const lines = [at(310, 120, '1. EVANS'), at(310, 220, '3. 05.07.2031'), at(310, 270, '4a. 01.02.2020'), at(310, 320, '4b. 31.01.2019')];
    expect(frontChecks(readFront(lines, 'DEU'), 'DEU', '2026-11-27').implausible).toEqual(new Set(['person.date_of_birth', 'document.expiration_date']));
  });
});

describe('US licence fronts: AAMVA numbers and labels', () => {
  it('reads fields whose numbers OCR glued to their values, and a row holding two fields', () => {
    const lines = [
      at(337, 357, '4dDL'), at(395, 357, '97551579'), at(600, 357, 'Class M2'),
      at(339, 402, '4a lss'), at(430, 402, '05/01/2031'), at(600, 402, '4bExp12/07/2041'),
      at(341, 439, 'DOB06/27/1978'), at(336, 483, '1MILLER'), at(341, 511, '2JOSEPHJOHN'),
      at(339, 569, '8175 MARVON AVE'), at(359, 594, 'DALLAS,TX75243'), at(388, 718, '5DD98947249909833400781'),
    ];
    expect(fields(lines, 'USA')).toEqual({
      'document.number': '97551579', 'document.issue_date': '2031-05-01', 'document.expiration_date': '2041-12-07', 'person.date_of_birth': '1978-06-27',
      'person.surname': 'MILLER', 'person.given_names': 'JOSEPHJOHN', 'address.street': '175 MARVON AVE', 'address.city': 'DALLAS', 'address.state': 'TX', 'address.zip': '75243',
    });
  });

  it('reads a photographed row: ISS read 1ss glued to its number, a DL label glued to the licence number over a taller row', () => {
    const lines = [
      at(434, 235, '4d DLY2312253', 38), at(848, 261, '9CLASsD', 30), at(434, 279, '4a1ss04/13/2024', 56), at(640, 279, '4bEXP04/14/2034', 56), at(429, 325, '3DOB08/17/1982', 37),
    ];
    expect(fields(lines, 'USA')).toEqual({ 'document.number': 'Y2312253', 'document.issue_date': '2024-04-13', 'document.expiration_date': '2034-04-14', 'person.date_of_birth': '1982-08-17' });
  });

  it('reads a date under its label whose month is 10 to 12: "11/23/2003" is no field 11, "12/03/2034" no "1,2"', () => {
    const lines = [at(418, 203, 'DL', 22), at(728, 199, 'EXP', 16), at(419, 221, 'X7819676', 31), at(727, 214, '11/12/2028', 32), at(424, 489, 'DOB', 14), at(424, 503, '11/23/2003', 31), at(736, 480, 'SEX', 18), at(736, 499, 'F', 27)];
    expect(fields(lines, 'USA')).toMatchObject({ 'document.number': 'X7819676', 'document.expiration_date': '2028-11-12', 'person.date_of_birth': '2003-11-23' });
    // Nor is "12/03/2034" the "1,2" of a name printed whole.
    expect(fields([at(743, 210, 'EXP', 15), at(742, 228, '12/03/2034', 36)], 'USA')).toEqual({ 'document.expiration_date': '2034-12-03' });
  });

  it('takes a family name whose number was lost from above the given names, as a guess only', () => {
    const lines = [at(476, 399, ',SOUZA', 40), at(475, 449, '2 JORGE', 32), at(475, 494, '8 100 MAIN STREET', 30), at(497, 540, 'ANYTOWN, MA, 02127', 27)];
    const reads = readFront(lines, 'USA');
    expect(reads.find((r) => r.field === 'person.surname')).toMatchObject({ value: 'SOUZA', guess: true });
    expect(fields(lines, 'USA')).toMatchObject({ 'address.street': '100 MAIN STREET', 'address.city': 'ANYTOWN', 'address.zip': '02127' });
  });

  it('reads labels printed above their values (LN, FN, ADDRESS), a state code misread with a zero', () => {
    const lines = [at(316, 81, 'DL', 17), at(317, 103, 'M2721741'), at(315, 152, 'LN', 17), at(317, 173, 'ALLEN'), at(316, 223, 'FN', 17), at(316, 242, 'MICHAEL'), at(319, 295, 'ADDRESS', 12), at(317, 314, '98 MARVON AVE', 20), at(317, 348, 'DENVER, C0 80202', 20), at(317, 374, 'DOB', 14), at(316, 393, '09/08/1999')];
    expect(fields(lines, 'USA')).toMatchObject({ 'document.number': 'M2721741', 'person.surname': 'ALLEN', 'person.given_names': 'MICHAEL', 'person.date_of_birth': '1999-09-08', 'address.state': 'CO', 'address.zip': '80202' });
  });
});

describe('Canadian licence fronts: bilingual and French labels, hyphenated numbers, the name printed whole', () => {
  it('reads an Ontario front: "1,2 NAME/NOM" over "SURNAME," and the given names, a hyphenated number, labels above values', () => {
    const lines = [
      at(317, 127, '4d NUMBER/NUMERO', 14), at(316, 150, 'W8651-42168-86729', 23), at(316, 191, '1,2 NAME/NOM', 17), at(316, 214, 'Wilson,', 27), at(318, 247, 'ETIENNE', 30),
      at(316, 296, '8ADDRESS/ADRESSE', 17), at(317, 320, '70AVENUE DES PINS'), at(317, 357, 'TORONTO, ON M5V 3L9', 23),
      at(316, 399, '3 D0B/DDN', 21), at(525, 397, '4a ISS/DEL', 25), at(738, 401, '4b EXP', 18), at(317, 426, '1975/12/18'), at(527, 426, '2022/11/23'), at(739, 426, '2032/11/24'),
    ];
    expect(fields(lines, 'CAN')).toEqual({
      'person.surname': 'WILSON', 'person.given_names': 'ETIENNE', 'document.number': 'W86514216886729', 'person.date_of_birth': '1975-12-18', 'document.issue_date': '2022-11-23',
      'document.expiration_date': '2032-11-24', 'address.street': '70 AVENUE DES PINS', 'address.city': 'TORONTO', 'address.state': 'ON', 'address.zip': 'M5V 3L9',
    });
  });

  it('reads a Quebec front in French and a New Brunswick one in both languages, labels beside values', () => {
    const quebec = [
      at(310, 140, '4d NUMERO C0454-719272-67'), at(310, 190, '1 NOM COTE'), at(310, 235, '2 PRENOM OLIVIER GABRIELLE'), at(310, 285, '8 ADRESSE 59 MAIN STREET'), at(420, 325, 'QUEBEC, QC G1R 4P5'),
      at(310, 380, '3 DATE DE NAISSANCE 1984-05-26'), at(310, 425, '4a DELIVRANCE 2021-10-02'), at(620, 425, '4b EXPIRATION 2031-08-04'),
    ];
    expect(fields(quebec, 'CAN')).toMatchObject({ 'document.number': 'C045471927267', 'person.surname': 'COTE', 'person.given_names': 'OLIVIER GABRIELLE', 'person.date_of_birth': '1984-05-26', 'document.expiration_date': '2031-08-04', 'address.city': 'QUEBEC' });
    const brunswick = [at(310, 140, '4d DL NO/NO PERMIS 3788631'), at(310, 190, '1 LN/NOM TREMBLAY'), at(310, 235, '2 FN/PRENOM WILLIAM EMMA')];
    expect(fields(brunswick, 'CAN')).toEqual({ 'document.number': '3788631', 'person.surname': 'TREMBLAY', 'person.given_names': 'WILLIAM EMMA' });
  });

  it('reads photographed bilingual labels whose slash and spaces OCR lost (1LNNOM, 2FNPRENO, INOM), values side by side under their own labels', () => {
    const box = (text: string, left: number, right: number, top: number, bottom: number): VizLine => ({ text, mean: 0.95, left, right, top, bottom });
    const brunswick = [box('4dDLNONO PERMIS 3788631', 432, 645, 247, 271), box('1LNNOM TREMBLAY', 428, 610, 293, 320), box('2FNPRENO WILLIAM EMMA', 425, 678, 337, 365)];
    expect(fields(brunswick, 'CAN')).toEqual({ 'document.number': '3788631', 'person.surname': 'TREMBLAY', 'person.given_names': 'WILLIAM EMMA' });
    expect(fields([box('INOM COTE', 420, 538, 286, 324)], 'CAN')).toEqual({ 'person.surname': 'COTE' });
    const ontario = [
      box('3DOB/DDN', 417, 510, 499, 523), box('4aISS/DEL', 615, 701, 508, 535), box('4bEXP', 813, 873, 521, 544),
      box('1975/12/18', 415, 580, 522, 557), box('2022/11/23', 614, 778, 534, 568), box('2032/11/24', 812, 978, 545, 580),
    ];
    expect(fields(ontario, 'CAN')).toEqual({ 'person.date_of_birth': '1975-12-18', 'document.issue_date': '2022-11-23', 'document.expiration_date': '2032-11-24' });
  });

  it('reads a name printed whole on one line ("1,2 BOUCHARD, EMMA") and a year-first date with the month in letters', () => {
    const lines = [at(310, 140, '4d DL 136036-126'), at(310, 195, '1,2 BOUCHARD, EMMA'), at(310, 380, '3 DOB 1954-JUN-19'), at(620, 425, '4b EXP 2034-FEB-26')];
    expect(fields(lines, 'CAN')).toEqual({ 'document.number': '136036126', 'person.surname': 'BOUCHARD', 'person.given_names': 'EMMA', 'person.date_of_birth': '1954-06-19', 'document.expiration_date': '2034-02-26' });
  });
});

describe('a licence front beside its PDF417 barcode: the layout read as the printed source', () => {
  it('compares the values printed where each field is, with their own trust: a supported disagreement is review, an unsupported one decides nothing', () => {
    const reported = new Map([
      ['person.surname', { value: 'TREMBLAY', confidence: 0.9 }],
      ['person.given_names', { value: 'WILIAM', confidence: 0.5 }],
      ['person.date_of_birth', { value: '1995-04-15', confidence: 0.9 }],
      ['document.number', { value: '3788631', confidence: 0.9 }],
      ['address.city', { value: 'FREDERICTON', confidence: 0.9 }],
    ]);
    const barcode: Reading[] = [
      { field: 'person.surname', value: 'TREMBLAY', source: 'barcode' }, { field: 'person.given_names', value: 'WILLIAM', source: 'barcode' },
      { field: 'person.date_of_birth', value: '1995-04-14', source: 'barcode' }, { field: 'document.number', value: '3788631', source: 'barcode' },
    ];
    const printed = printedReadings(reported);
    expect(printed.map((r) => [r.field, r.source, r.confidence])).toEqual([
      ['person.surname', 'printed', 0.9], ['person.given_names', 'printed', 0.5], ['person.date_of_birth', 'printed', 0.9], ['document.number', 'printed', 0.9], ['person.full_name', 'printed', 0.5],
    ]);
    const results = Object.fromEntries(crossSource([...barcode, ...printed], ruleThresholds).map((r) => [r.name, r.result]));
    expect(results).toMatchObject({ 'consistency.person.surname': 'passed', 'consistency.person.date_of_birth': 'review', 'consistency.document.number': 'passed' });
    // WILIAM against WILLIAM, read once alike: unsupported, it decides nothing.
    expect(results['consistency.person.given_names']).toBe('not_evaluated');
  });
});

describe('identity-card fronts without MRZ: bilingual labels above values', () => {
  it('reads the French card of 2021, never a misread label word as the surname', () => {
    const lines = [
      at(416, 230, 'NOM/Sumame', 20), at(733, 231, 'NDU DOCUMENT/Document No', 20), at(418, 253, 'DUPONT', 25), at(735, 255, 'FWHFJFEF1', 25),
      at(416, 300, 'Prenoms/Given names', 20), at(416, 322, 'AMELIE,CAMILLE', 25), at(754, 370, 'DATE DE NAISS./Date of birth', 20), at(754, 395, '19021998', 25),
      at(753, 441, "DATED'EXPIR./Expiry date", 20), at(754, 464, '27 11 2030', 25),
    ];
    expect(fields(lines, 'FRA')).toEqual({ 'person.surname': 'DUPONT', 'document.number': 'FWHFJFEF1', 'person.given_names': 'AMELIE CAMILLE', 'person.date_of_birth': '1998-02-19', 'document.expiration_date': '2030-11-27' });
  });

  it("takes no other field's label for a name, however the OCR joined it", () => {
    // Seen on a generated French card: the given names lost, the expiry label below them read as the value, alike twice.
    for (const label of ['DATE D EXPIR EXPIRY DATE', 'DATE DE NAISS DATE OF BIRTH', 'EXPIRY DATE', 'DATE OF BIRTH', 'GEBURTSDATUM', 'FECHA DE NACIMIENTO', 'N DU DOCUMENT DOCUMENT NO', 'PRENOMS GIVEN NAMES', 'NOM SURNAME']) {
      expect([label, nameValue(label)]).toEqual([label, undefined]);
    }
    expect(nameValue('AMELIE CAMILLE')).toBe('AMELIE CAMILLE');
    expect(nameValue('DATEMA')).toBe('DATEMA');
  });

  it('takes no misread label word for a value even where a tilted photo makes label and value boxes alike in height', () => {
    const lines = [at(427, 221, 'NOM/Sumame', 26), at(426, 245, 'DUPONT', 29), at(422, 293, 'Prenoms / Given names', 26), at(420, 314, 'LUC', 28)];
    expect(fields(lines, 'FRA')).toMatchObject({ 'person.surname': 'DUPONT', 'person.given_names': 'LUC' });
  });
});

describe('proof of address read whole', () => {
  const place = (x: number, y: number, text: string): PlacedLine => ({ text, left: x, top: y, right: x + text.length * 14, bottom: y + 28 });
  const expectedOf = (first: string, last: string, street = '', zip = ''): ExpectedData => ({
    person: { first_name: first, last_name: last, date_of_birth: '' },
    address: { street, city: '', state: '', postal_code: zip, country: 'USA' },
    documents: { photo_id: { type: '', number: '', country: 'USA' }, proof_of_address: { type: '', number: '', country: 'USA' } },
  });

  it('never takes a service line for the name because it equals the expected value', () => {
    const lines = [place(80, 40, 'NORTHWIND ENERGY'), place(80, 120, 'CUSTOMER SUPPORT DEPARTMENT'), place(80, 160, '1-800-555-0100'), place(100, 400, 'Jane Smith'), place(100, 440, '12 Oak Avenue'), place(100, 480, 'Austin, TX 78701')];
    const data = emptyExtractedData();
    const confidence: Record<string, number> = {};
    fillAddress(data, confidence, lines.map((l) => l.text), expectedOf('', 'Customer'), 'USA', 0.95, lines);
    expect(data.person.full_name).toBe('JANE SMITH');
    expect(confidence['person.full_name']).toBeLessThan(0.6);
  });

  it("keeps the holder's block when another person's data matches the letterhead's address", () => {
    const lines = [place(80, 40, 'ACME SAVINGS BANK'), place(80, 80, '1 Market Street'), place(80, 120, 'Denver, CO 80202'), place(100, 400, 'Jane Smith'), place(100, 440, '12 Oak Avenue'), place(100, 480, 'Austin, TX 78701')];
    const data = emptyExtractedData();
    const confidence: Record<string, number> = {};
    fillAddress(data, confidence, lines.map((l) => l.text), expectedOf('Acme', 'Savings', '1 Market Street', '80202'), 'USA', 0.95, lines);
    expect(data.address.street).toBe('12 OAK AVENUE');
    // Nothing trusted but the declared country's echo.
    expect(Object.keys(confidence).filter((k) => (confidence[k] as number) >= 0.6)).toEqual(['address.country']);
  });

  it('trusts no value a character off the expected one: the city line may be split a letter off (SALFOR / DM5 4WT)', () => {
    const lines = [place(80, 40, 'NORTHWIND ENERGY LTD'), place(100, 400, 'Grace Brown'), place(100, 440, '12 Mill Road'), place(100, 480, 'SALFORDM5 4WT')];
    const data = emptyExtractedData();
    const confidence: Record<string, number> = {};
    const expected = { ...expectedOf('Grace', 'Brown', '12 Mill Road', 'M5 4WT'), address: { street: '12 Mill Road', city: 'Salford', state: '', postal_code: 'M5 4WT', country: 'GBR' } };
    fillAddress(data, confidence, lines.map((l) => l.text), expected, 'GBR', 0.95, lines);
    expect([data.address.city, data.address.zip]).toEqual(['SALFOR', 'DM5 4WT']);
    expect([confidence['address.city'], confidence['address.zip'], confidence['address.street']]).toEqual([0.5, 0.5, 0.95]);
  });

  it("splits a city glued to its UK postcode where the city is the postcode area's town (MANCHESTER / M1 1AE, not MANCHESTE / RM1 1AE)", () => {
    expect(cityLine('MANCHESTERM1 1AE', 'GBR')).toEqual({ city: 'MANCHESTER', state: '', zip: 'M1 1AE' });
    expect(cityLine('LONDONSW1A2AA', 'GBR')).toEqual({ city: 'LONDON', state: '', zip: 'SW1A 2AA' });
  });

  it('reads a US state code OCR read with a zero and glued to the ZIP code (DENVER, C080202)', () => {
    expect(cityLine('Denver,C080202', 'USA')).toEqual({ city: 'DENVER', state: 'CO', zip: '80202' });
    const lines = [place(80, 40, 'CASTLEGATE INSURANCE'), place(110, 400, 'Joseph Brenda Young'), place(110, 440, '90 Main Street'), place(110, 480, 'Denver,C080202')];
    const data = emptyExtractedData();
    fillAddress(data, {}, lines.map((l) => l.text), null, 'USA', 0.95, lines);
    expect([data.person.full_name, data.address.street, data.address.city, data.address.state, data.address.zip]).toEqual(['JOSEPH BRENDA YOUNG', '90 MAIN STREET', 'DENVER', 'CO', '80202']);
  });

  it('reads German and Spanish blocks whose words OCR glued (title before a glued name, number after a street)', () => {
    for (const [country, lines, name, street] of [
      ['DEU', [place(579, 278, 'Burgeramt Mitte · Goethestrasse 74 · 10115 Berlin'), place(579, 310, 'Frau AnnikaBecker'), place(579, 341, 'Goethestrasse 126'), place(577, 372, '04109 Leipzig')], 'ANNIKABECKER', 'GOETHESTRASSE 126'],
      ['DEU', [place(80, 40, 'STADTWERKE NORDHAFEN GMBH'), place(579, 310, 'FrauJuliaWeber'), place(579, 341, 'Goethestrasse 126'), place(577, 372, '04109 Leipzig')], 'JULIA WEBER', 'GOETHESTRASSE 126'],
      ['ESP', [place(94, 307, 'D. ELENA GARCiA LOPEZ'), place(95, 342, 'CALLEMAYOR48'), place(93, 373, '29001 MALAGA'), place(94, 406, 'ESPANA')], 'ELENA GARCIA LOPEZ', 'CALLEMAYOR 48'],
    ] as const) {
      const data = emptyExtractedData();
      fillAddress(data, {}, lines.map((l) => l.text), null, country, 0.95, [...lines]);
      expect([data.person.full_name, data.address.street]).toEqual([name, street]);
    }
  });

  it("takes the letterhead's name in its large type as the issuer, not a page number, title or sender line above it", () => {
    const tall = (x: number, y: number, text: string, h: number): PlacedLine => ({ text, left: x, top: y, right: x + text.length * h * 0.6, bottom: y + h });
    const lines = [
      tall(900, 20, 'Page 1/2', 14), tall(80, 40, 'Facture', 30), tall(80, 85, 'ÉNERGIES DU RHÔNE SA', 44), tall(80, 175, '12 Rue Victor Hugo', 20),
      tall(700, 400, 'M. Luc Dupont', 28), tall(700, 440, '4 Rue des Lilas', 28), tall(700, 480, '69002 Lyon', 28),
    ];
    const data = emptyExtractedData();
    fillAddress(data, {}, lines.map((l) => l.text), null, 'FRA', 0.95, lines);
    expect(data.document.issuing_entity).toBe('ENERGIES DU RHONE SA');
    expect(data.person.full_name).toBe('LUC DUPONT');
  });

  it('reads the issue date after French, German and Spanish labels and on a letter’s dated line', () => {
    expect(issueDateOf(['Facture', "Date d'émission : 12 octobre 2026"], 'DMY')).toEqual({ iso: '2026-10-12', unambiguous: true });
    expect(issueDateOf(['Rechnungsdatum: 02.10.2026', 'Fällig am 16.10.2026'], 'DMY')).toEqual({ iso: '2026-10-02', unambiguous: false });
    expect(issueDateOf(['Fechadeemisi6n:21deoctubrede2026'], 'DMY')?.iso).toBe('2026-10-21');
    expect(issueDateOf(['Sehr geehrte Damen und Herren,', 'Berlin,22.0ktober 2026'], 'DMY')?.iso).toBe('2026-10-22');
    expect(issueDateOf(['Lyon, le 1er octobre 2026'], 'DMY')?.iso).toBe('2026-10-01');
    expect(issueDateOf(['Due date: 12 October 2026'], 'DMY')).toBeUndefined();
  });
});
