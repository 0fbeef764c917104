import { fillAddress } from '../../../src/adapters/offline/extractor';
import { dateSpellings, datesIn, findDate, findValue } from '../../../src/adapters/offline/text-search';
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
    expect(confidence['person.full_name']).toBeLessThan(0.9);
  });
});
