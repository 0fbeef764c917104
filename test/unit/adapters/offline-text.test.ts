import { cityLine, fillAddress, findAddressBlock, type PlacedLine, rows, stacked } from '../../../src/adapters/offline/address';
import { dateOrderOf, dateSpellings, datesIn, digitsInNumbers, EXPIRY_LABEL, findDate, findValue, ISSUE_LABEL, labelledDate, labelledDateRead, monthLetters, UNTRUSTED_HIT, unambiguousDate } from '../../../src/adapters/offline/text-search';
import { emptyExtractedData } from '../../../src/domain/rules';

describe('finding expected values in OCR text', () => {
  it('trusts a hit at most one character off and in no digit; a glued, garbled name or another house number stays below the trust threshold', () => {
    // Read from a generated bill photographed at an angle: two letters lost, and a 6 read as S.
    const name = findValue(['ISABELFCHER', 'S7CEDARLANE'], 'Isabel Fischer')!;
    const street = findValue(['ISABELFCHER', 'S7CEDARLANE'], '67 Cedar Lane')!;
    expect([name.text, name.confidence]).toEqual(['ISABELFCHER', UNTRUSTED_HIT]);
    expect([street.text, street.confidence]).toEqual(['S7CEDARLANE', UNTRUSTED_HIT]);
    expect(street.score).toBeGreaterThan(0.9);
    // One letter off, no digit involved: trusted as read (the rules then compare word by word).
    const surname = findValue(['NAKAMURA TARO'], 'Nakamuro')!;
    expect([surname.text, surname.confidence]).toEqual(['NAKAMURA', surname.score]);
    expect(surname.confidence).toBeGreaterThan(0.6);
  });

  it('finds a value whose spaces OCR dropped, and returns it as expected', () => {
    expect(findValue(['BRIGHTLINE POWER', 'LONDONSW1A2AA'], 'SW1A 2AA')).toEqual({ text: 'SW1A 2AA', line: 1, score: 1, confidence: 1 });
  });

  it('tolerates one character in a name, returning what the page shows', () => {
    expect(findValue(['MATE0 SILVA'], 'Mateo Silva')).toMatchObject({ text: 'MATE0 SILVA', score: expect.closeTo(0.9, 2) });
  });

  it('reports a different name as the page prints it, never bent towards the expected one', () => {
    expect(findValue(['MR TARO NAKAMURA', '1 MAIN ST'], 'Taro Nakamuro')).toMatchObject({ text: 'TARO NAKAMURA', line: 0 });
    expect(findValue(['NAKAMURA'], 'NAKAMURO')).toMatchObject({ text: 'NAKAMURA' });
  });

  it('matches short values (a state, a postal code) only as whole words, never inside another word', () => {
    expect(findValue(['LONDON', 'KENSINGTON'], 'ON')).toBeUndefined();
    expect(findValue(['TORONTO ON M5V 3L9'], 'ON')).toMatchObject({ text: 'ON', line: 0 });
    expect(findValue(['AUSTIN, TX78701'], '78701')).toMatchObject({ text: '78701' });
    expect(findValue(['INVOICE 787012'], '78701')).toBeUndefined();
  });

  it('reads numeric dates in the issuing country\'s order, with dots and spaces too, and drops impossible ones', () => {
    expect(datesIn(['EXP 03.11.2030'], 'DMY')).toEqual([{ iso: '2030-11-03', line: 0 }]);
    expect(datesIn(['11 02 2030'], 'DMY')).toEqual([{ iso: '2030-02-11', line: 0 }]);
    expect(datesIn(['11/02/2030'], 'MDY')).toEqual([{ iso: '2030-11-02', line: 0 }]);
    // A part over 12 decides whatever the country.
    expect(datesIn(['25/12/2030'], 'MDY')).toEqual([{ iso: '2030-12-25', line: 0 }]);
    expect(datesIn(['31.04.2030 13/13/2030 02.30.1850'], 'DMY')).toEqual([]);
    expect(dateOrderOf('USA')).toBe('MDY');
    expect(dateOrderOf('DEU')).toBe('DMY');
  });

  it('takes the expiry from its label, also when it has passed, and from the line below a label', () => {
    expect(labelledDate(['DOB 12.08.1974', 'ISS 01.02.2015', 'EXP 01.02.2025'], EXPIRY_LABEL, 'DMY')).toBe('2025-02-01');
    expect(labelledDate(['4b EXP 09/08/2033', '3 DOB 08/12/1974'], EXPIRY_LABEL, 'MDY')).toBe('2033-09-08');
    expect(labelledDate(['Date of expiry', '14 MAR 2029'], EXPIRY_LABEL, 'DMY')).toBe('2029-03-14');
    expect(labelledDate(['DOB 12.08.1974'], EXPIRY_LABEL, 'DMY')).toBeUndefined();
  });

  it('reads a date with the month named first, as US letters print it', () => {
    expect(datesIn(['Statement date: March 3, 2026'], 'MDY')).toEqual([{ iso: '2026-03-03', line: 0 }]);
    expect(datesIn(['SEP 30 2026', 'Sept. 1, 2026'], 'DMY')).toEqual([{ iso: '2026-09-30', line: 0 }, { iso: '2026-09-01', line: 1 }]);
    expect(datesIn(['February 30, 2026'], 'MDY')).toEqual([]);
  });

  it('takes a bill\'s issue date from its label, never a due date or a bare "Date"', () => {
    const bill = ['ACME POWER', 'Account 12345', 'Statement date: 14 OCT 2026', 'Payment due: 04/11/2026'];
    expect(labelledDateRead(bill, ISSUE_LABEL, 'DMY')).toEqual({ iso: '2026-10-14', text: 'STATEMENT DATE: 14 OCT 2026' });
    expect(labelledDate(['Invoice date', '10/09/2026'], ISSUE_LABEL, 'MDY')).toBe('2026-10-09');
    expect(labelledDate(['Date of issue 2026-10-02'], ISSUE_LABEL, 'DMY')).toBe('2026-10-02');
    expect(labelledDate(['Due date 01/12/2026', 'Date 01/11/2026', 'Paid on 03/11/2026'], ISSUE_LABEL, 'DMY')).toBeUndefined();
    // As OCR reads a tight line: no spaces, O read as zero.
    expect(labelledDate(['Statementdate:100CT2026'].map(monthLetters), ISSUE_LABEL, 'DMY')).toBe('2026-10-10');
  });

  it('gives a month name read with digits its letters back, only between a day and a year', () => {
    expect(monthLetters('Statementdate:100CT2026')).toBe('STATEMENTDATE:10OCT2026');
    expect(monthLetters('01 N0V 2026, 3 5EP 2026, 4 0CT. 2026')).toBe('01 NOV 2026, 3 SEP 2026, 4 OCT. 2026');
    expect(monthLetters('ACCOUNT 0CT 2026 BOX 10CT')).toBe('ACCOUNT 0CT 2026 BOX 10CT');
  });

  it('tells a date whose day and month cannot be swapped from one that can', () => {
    for (const text of ['14 OCT 2026', 'October 1, 2026', '2026-10-02', '25/10/2026', '10/25/2026', '03.03.2026']) expect(unambiguousDate(text)).toBe(true);
    for (const text of ['10/09/2026', '01.02.2026']) expect(unambiguousDate(text)).toBe(false);
  });

  it('reads O and I inside numbers as the digits OCR confused them with, whatever is expected', () => {
    expect(findValue(['1OO MAIN STREET'], '100 Main Street')).toEqual({ text: '100 MAIN STREET', line: 0, score: 1, confidence: 1 });
    expect(digitsInNumbers('FLAT 1O, 2I OAK ROAD M5V 3L9 SW1A 1AA')).toBe('FLAT 10, 21 OAK ROAD M5V 3L9 SW1A 1AA');
    // A different number stays different: only the letters are read as digits.
    expect(findValue(['1OO MAIN STREET'], '106 Main Street')).toMatchObject({ text: '100 MAIN STREET' });
  });

  it('requires short values (postal codes) to match exactly', () => {
    expect(findValue(['Account 10116'], '10115')).toBeUndefined();
    expect(findValue(['10115 BERLIN'], '10115')).toMatchObject({ text: '10115' });
  });

  it('finds dates in their printed spellings', () => {
    expect(dateSpellings('1974-08-12')).toContain('12 AUG 1974');
    expect(findDate(['DOB 08/12/1974'], '1974-08-12')).toMatchObject({ line: 0 });
    expect(datesIn(['Statement date: 03 NOV 2026', 'EXP 09/08/2033'])).toEqual([{ iso: '2026-11-03', line: 0 }, { iso: '2033-09-08', line: 1 }]);
  });
});

describe('proof of address fields', () => {
  it('takes the block above the first postal-code line when there is no expected data', () => {
    const data = emptyExtractedData();
    const confidence: Record<string, number> = {};
    fillAddress(data, confidence, ['NORTHWIND ENERGY', 'ELECTRICITY BILL', 'ANNA SMITH', '12 MAIN ST', 'AUSTIN, TX 78701'], null, 'USA', 1);
    expect(data.person.full_name).toBe('ANNA SMITH');
    expect(data.address.street).toBe('12 MAIN ST');
    expect(data.document).toMatchObject({ identified: 'true', issuing_entity: 'NORTHWIND ENERGY', country_code: 'USA' });
    // A layout guess is reported but never trusted (the rules trust 0.6 and above).
    expect(confidence['person.full_name']).toBeLessThan(0.6);
  });

  it('reports the postal code, state and city of the block\'s last line without expected data, untrusted', () => {
    const data = emptyExtractedData();
    const confidence: Record<string, number> = {};
    fillAddress(data, confidence, ['NORTHWIND ENERGY', 'ANNA SMITH', '12 MAIN ST', 'AUSTIN, TX 78701'], null, 'USA', 1);
    expect(data.address).toMatchObject({ city: 'AUSTIN', state: 'TX', zip: '78701' });
    expect(confidence['address.zip']).toBeLessThan(0.6);
    expect(cityLine('LONDON SW1A 2AA', 'GBR')).toEqual({ city: 'LONDON', state: '', zip: 'SW1A 2AA' });
    expect(cityLine('MELBOURNE VIC 3000', 'AUS')).toEqual({ city: 'MELBOURNE', state: 'VIC', zip: '3000' });
    // Without a postal code of the country's shape a line is no city line.
    expect(cityLine('SPRINGFIELD', 'USA')).toBeUndefined();
  });

  it('never takes a date line for the postal-code line without expected data (a year is no postal code)', () => {
    const data = emptyExtractedData();
    const confidence: Record<string, number> = {};
    fillAddress(data, confidence, ['EAST REPAIR INC', 'INVOICE US 001', 'INVOICE DATE 11/02/2019', 'JOHN SMITH', '2 COURT SQUARE', 'NEW YORK, NY 12210'], null, 'USA', 1);
    expect(data.address).toMatchObject({ street: '2 COURT SQUARE', city: 'NEW YORK', state: 'NY', zip: '12210' });
    expect(data.person.full_name).toBe('JOHN SMITH');
  });

  it('never takes a letterhead or table line for the holder\'s name when there is no expected data', () => {
    const data = emptyExtractedData();
    const confidence: Record<string, number> = {};
    fillAddress(data, confidence, ['BRIGHT BANK', 'CUSTOMER SUPPORT DEPARTMENT', 'ACCOUNT 12345678', '12 MAIN ST', 'AUSTIN, TX 78701'], null, 'USA', 1);
    expect(data.person.full_name).toBe('');
    expect(data.address.street).toBe('12 MAIN ST');
    expect(confidence['address.street']).toBeLessThan(0.6);
  });
});

/** OCR lines with boxes: text at (x, y), 20 pixels high, 10 pixels a character. */
const at = (x: number, y: number, text: string): PlacedLine => ({ text, left: x, top: y, right: x + 10 * text.length, bottom: y + 20 });

describe('the holder\'s address block without expected data', () => {
  it('takes the block under "bill to", not the sender\'s above it nor the "ship to" beside it', () => {
    const page = [
      at(80, 100, 'FROM'), at(80, 125, 'East Repair Inc.'), at(80, 150, '1912 Harvest Lane'), at(80, 175, 'New York, NY 12210'),
      at(80, 240, 'BILL TO'), at(400, 240, 'SHIP TO'),
      at(80, 270, 'Mary Major'), at(400, 270, 'John Doe'),
      at(80, 295, '2 Court Square'), at(400, 295, '3787 Pineview Drive'),
      at(80, 320, 'New York, NY 10007'), at(400, 320, 'Cambridge, MA 02139'),
    ];
    expect(findAddressBlock(page, 'USA')).toMatchObject({ name: 'MARY MAJOR', street: '2 COURT SQUARE', city: 'NEW YORK', state: 'NY', zip: '10007' });
    // Without the bill-to block, the delivery address is the holder's; the sender's never is.
    expect(findAddressBlock(page.filter((l) => l.left > 300 || l.top < 200), 'USA')).toMatchObject({ name: 'JOHN DOE', zip: '02139' });
    expect(findAddressBlock(page.filter((l) => l.top < 200), 'USA')).toBeUndefined();
  });

  it('keeps the columns of a row apart: the address beside a list of telephone numbers', () => {
    const page = [
      at(60, 300, 'Rachael Dean'), at(630, 300, 'Available by phone 24 hours a day'),
      at(60, 320, 'Calvin Carrillo'), at(630, 320, 'Telecommunications Relay Services'),
      at(60, 340, '2 King Fork Rd.'), at(630, 340, '1-800-TO-WELLS (1-800-869-3557)'),
      at(60, 360, 'Indianapolis IN, 46201'), at(630, 360, 'TTY: 1-800-877-4833'),
      at(630, 470, 'Write: Wells Fargo Bank, N.A. (297)'), at(630, 490, 'P.O. Box 6995'), at(630, 510, 'Portland, OR 97228-6995'),
    ];
    // The first of two holders is taken; the bank's "write to" address is not.
    expect(findAddressBlock(page, 'USA')).toMatchObject({ name: 'RACHAEL DEAN', street: '2 KING FORK RD', city: 'INDIANAPOLIS', state: 'IN', zip: '46201' });
    expect(rows(page).slice(0, 2)).toEqual(['Rachael Dean Available by phone 24 hours a day', 'Calvin Carrillo Telecommunications Relay Services']);
  });

  it('prefers a person\'s block to a company letterhead, and strips titles from the name', () => {
    const page = stacked(['NORTHWIND ENERGY LTD', '1 Energy Plaza', 'Austin, TX 78701', '', 'MR & MRS ANNA SMITH', '12 MAIN ST', 'DALLAS, TX 75201']);
    expect(findAddressBlock(page, 'USA')).toMatchObject({ name: 'ANNA SMITH', street: '12 MAIN ST', city: 'DALLAS', zip: '75201' });
    // A letterhead alone is nobody's address, also when its company word is the only sign ("ACME CORP" is no name).
    expect(findAddressBlock(page.slice(0, 3), 'USA')).toBeUndefined();
    expect(findAddressBlock(stacked(['ACME CORP', '1 Energy Plaza', 'Austin, TX 78701']), 'USA')).toBeUndefined();
    expect(findAddressBlock(stacked(['RUTH BRIDGEWATER', '1 Energy Plaza', 'Austin, TX 78701']), 'USA')).toMatchObject({ name: 'RUTH BRIDGEWATER' });
  });

  it('takes the name after a label on the same line, and a name whose spaces OCR dropped right above the street', () => {
    expect(findAddressBlock(stacked(['Bill To: Jane Smith,', '1600 AmphitheatrePkway', 'MountainView,CA94043']), 'USA')).toMatchObject({ name: 'JANE SMITH', street: '1600 AMPHITHEATREPKWAY', city: 'MOUNTAINVIEW', zip: '94043' });
    const stub = [at(170, 100, 'ANYCOMPANYCORP.'), at(170, 120, '475ANYAVENUE'), at(170, 140, 'ANYTOWN.USA10101'), at(600, 200, 'JOHNSTILES'), at(600, 220, '101 MAIN STREET'), at(600, 240, 'ANYTOWN,USA12345')];
    expect(findAddressBlock(stub, 'USA')).toMatchObject({ name: 'JOHNSTILES', street: '101 MAIN STREET', city: 'ANYTOWN', state: '', zip: '12345' });
  });

  it('fills the holder\'s fields from a text layer\'s rows: the bill-to party, never the sender, a house number or a due date', () => {
    const data = emptyExtractedData();
    const confidence: Record<string, number> = {};
    fillAddress(data, confidence, ['Google INVOICE', 'John Smith', 'Bill To: Date: Sep 24, 2019', 'Jane Smith, Due Date: Sep 30, 2019', '1600 AmphitheatrePkway', 'MountainView,CA94043'], null, 'USA', 1);
    expect(data.person.full_name).toBe('JANE SMITH');
    expect(data.address).toMatchObject({ street: '1600 AMPHITHEATREPKWAY', city: 'MOUNTAINVIEW', state: 'CA', zip: '94043' });
    expect(confidence['address.zip']).toBeLessThan(0.6);
  });

  it('never takes a house number, a year, an amount or an account number for the postal code', () => {
    expect(cityLine('1600 AMPHITHEATRE PKWY', 'USA')).toBeUndefined();
    expect(cityLine('1600 AMPHITHEATRE PKWY', 'AUT')).toBeUndefined();
    expect(cityLine('ACCOUNT 12345', 'USA')).toBeUndefined();
    expect(cityLine('INVOICE 787012', 'USA')).toBeUndefined();
    expect(findAddressBlock(stacked(['JANE SMITH', '1600 AMPHITHEATRE PKWY']), 'USA')).toBeUndefined();
    // Date, amount and telephone lines are neither street nor city lines.
    expect(findAddressBlock(stacked(['JANE SMITH', 'Due Date: Sep 30, 2019', 'Balance Due 10115 $4,647.68']), 'DEU')).toBeUndefined();
    expect(findAddressBlock(stacked(['JANE SMITH', 'Tel 555 123 4567', 'AUSTIN TX 78701']), 'USA')).toBeUndefined();
    expect(findAddressBlock(stacked(['ANNA SCHMIDT', 'Rechnung 2019 vom 11.02.2019', '10115 BERLIN']), 'DEU')).toBeUndefined();
  });

  it('reads the postal codes of the declared country: UK, Canada, Australia, Europe', () => {
    expect(findAddressBlock(stacked(['MR JOHN SMITH', '10 DOWNING STREET', 'LONDON', 'SW1A 2AA']), 'GBR')).toMatchObject({ name: 'JOHN SMITH', city: 'LONDON', zip: 'SW1A 2AA' });
    expect(cityLine('LONDONSW1A2AA', 'GBR')).toEqual({ city: 'LONDON', state: '', zip: 'SW1A 2AA' });
    // A locality between the street and the post town, which stands above the postcode.
    expect(findAddressBlock(stacked(['MRS J SMITH', '4 CHURCH LANE', 'LITTLEBOURNE', 'CANTERBURY', 'CT3 1TU']), 'GBR')).toMatchObject({ name: 'J SMITH', street: '4 CHURCH LANE', city: 'CANTERBURY', zip: 'CT3 1TU' });
    expect(findAddressBlock(stacked(['MARIE TREMBLAY', '350 RUE SAINT-PAUL', 'MONTREAL QC H2Y 1H2']), 'CAN')).toMatchObject({ city: 'MONTREAL', state: 'QC', zip: 'H2Y 1H2' });
    // Australia: a state before four digits; the sender's US-style line is no Australian address.
    const invoice = stacked(['From:', 'DEMO - Sliced Invoices', 'Suite 5A-1204', '123 Somewhere Street', 'Your City AZ 12345', 'To:', 'Test Business', '123 Somewhere St', 'Melbourne, VIC 3000']);
    expect(findAddressBlock(invoice, 'AUS')).toMatchObject({ name: 'TEST BUSINESS', street: '123 SOMEWHERE ST', city: 'MELBOURNE', state: 'VIC', zip: '3000' });
    expect(findAddressBlock(stacked(['HERRN MAX MUSTERMANN', 'HAUPTSTRASSE 12', '10115 BERLIN']), 'DEU')).toMatchObject({ name: 'MAX MUSTERMANN', street: 'HAUPTSTRASSE 12', city: 'BERLIN', zip: '10115' });
    expect(findAddressBlock(stacked(['THEO OKAFOR', 'OUDEGRACHT 12', '3511 AB UTRECHT']), 'NLD')).toMatchObject({ city: 'UTRECHT', zip: '3511 AB' });
    expect(cityLine('1000-001 LISBOA', 'PRT')).toEqual({ city: 'LISBOA', state: '', zip: '1000 001' });
    expect(findAddressBlock(stacked(['M. Jean Dupont', '12 rue de la Paix', '75002 PARIS']), 'FRA')).toMatchObject({ name: 'JEAN DUPONT', city: 'PARIS', zip: '75002' });
    expect(findAddressBlock(stacked(['MR M SMITH', '100 KING ST W', 'TORONTO ON M5X1A9']), 'CAN')).toMatchObject({ name: 'M SMITH', zip: 'M5X 1A9' });
  });

  it('takes the customer\'s block of a US utility bill, not the utility\'s PO box, with the ZIP+4 as printed', () => {
    const bill = stacked(['CITY OF SPRINGFIELD UTILITIES', 'PO BOX 1234', 'SPRINGFIELD IL 62704', 'Account Number: 123-456', 'Service Address: 45 OAK ST', 'JOHN Q PUBLIC', '45 OAK ST', 'SPRINGFIELD IL 62704-1234']);
    expect(findAddressBlock(bill, 'USA')).toMatchObject({ name: 'JOHN Q PUBLIC', street: '45 OAK ST', city: 'SPRINGFIELD', state: 'IL', zip: '62704-1234' });
    // A label counts where a line starts with it: "from" inside a sentence is no sender's label.
    expect(findAddressBlock(stacked(['A note from your Northwind adviser', 'JOHN Q PUBLIC', '45 OAK ST', 'SPRINGFIELD IL 62704']), 'USA')).toMatchObject({ name: 'JOHN Q PUBLIC' });
  });
});
