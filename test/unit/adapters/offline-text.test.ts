import { cityLine, fillAddress } from '../../../src/adapters/offline/address';
import { dateOrderOf, dateSpellings, datesIn, digitsInNumbers, EXPIRY_LABEL, findDate, findValue, labelledDate } from '../../../src/adapters/offline/text-search';
import { emptyExtractedData } from '../../../src/domain/rules';

describe('finding expected values in OCR text', () => {
  it('finds a value whose spaces OCR dropped, and returns it as expected', () => {
    expect(findValue(['BRIGHTLINE POWER', 'LONDONSW1A2AA'], 'SW1A 2AA')).toEqual({ text: 'SW1A 2AA', line: 1, score: 1 });
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

  it('reads O and I inside numbers as the digits OCR confused them with, whatever is expected', () => {
    expect(findValue(['1OO MAIN STREET'], '100 Main Street')).toEqual({ text: '100 MAIN STREET', line: 0, score: 1 });
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
