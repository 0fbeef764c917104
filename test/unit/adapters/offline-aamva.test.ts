import { parseAamva } from '../../../src/adapters/offline/aamva';

/**
 * Hand-written AAMVA DL/ID barcode texts of several versions and both countries, laid out as the
 * standard prescribes: `@`, LF, RS, CR, the header (`ANSI `, IIN, version, [jurisdiction version],
 * number of subfiles), the subfile designators, then the DL subfile's elements, one a line.
 */
const LF = '\n';
const barcode = (header: string, elements: string[]): string => `@${LF}\x1e\r${header}DL${elements.join(LF)}\r`;

const californiaV08 = barcode('ANSI 636014080102DL00410278ZC03190024', [
  'DAQD1234562', 'DCSSAMPLE', 'DDEN', 'DACJANE', 'DDFN', 'DADQUINN', 'DDGN', 'DCAC', 'DCBNONE', 'DCDNONE',
  'DBD08312013', 'DBB08311977', 'DBA08312028', 'DBC2', 'DAU064 IN', 'DAYBRN', 'DAG2570 24TH STREET', 'DAIANYTOWN', 'DAJCA', 'DAK958250000  ', 'DCGUSA',
]);
const ontarioV10 = barcode('ANSI 636012100001DL00310250', [
  'DAQS1234-56789-01234', 'DCSSAMPLE', 'DDEN', 'DACJOHN', 'DDFN', 'DADMICHAEL', 'DDGN', 'DCAG', 'DCBX', 'DCDNONE',
  'DBD20200115', 'DBB19800601', 'DBA20250601', 'DBC1', 'DAU180 cm', 'DAG123 MAIN ST', 'DAITORONTO', 'DAJON', 'DAKM5V 2T6  ', 'DCGCAN',
]);
const quebecV03 = barcode('ANSI 604428030001DL00310200', [
  'DAQT1234-041085-01', 'DCSTREMBLAY', 'DCTMARIE,CLAIRE', 'DBD20190131', 'DBB19851004', 'DBA20270131', 'DAG45 RUE SAINT-PAUL', 'DAIMONTREAL', 'DAJQC', 'DAKH2X1Y4', 'DCGCAN',
]);
const texasV03 = barcode('ANSI 636015030001DL00310200', [
  'DAQ12345678', 'DCSDOE', 'DCTJOHN,PAUL', 'DBD01312019', 'DBB10041985', 'DBA10042027', 'DAG1 ELM ST', 'DAIAUSTIN', 'DAJTX', 'DAK787010000', 'DCGUSA',
]);
/** Version 01 (AAMVA DL/ID-2000): no jurisdiction version in the header, the full name in DAA, dates YYYYMMDD. */
const virginiaV01 = `@${LF}\x1e\rANSI 6360000101DL00290180${LF}DLDAQT12345678${LF}DAASMITH,JOHN,QUINCY${LF}DAG123 MAIN ST${LF}DAIRICHMOND${LF}DAJVA${LF}DAK232190000${LF}DBA20290215${LF}DBB19700215${LF}DBCM${LF}DBD20210215\r`;

describe('AAMVA barcode text by version and jurisdiction', () => {
  it('reads a US version 08 licence with MMDDYYYY dates', () => {
    expect(parseAamva(californiaV08)).toEqual({
      surname: 'SAMPLE', givenNames: 'JANE QUINN', dateOfBirth: '1977-08-31', expirationDate: '2028-08-31', number: 'D1234562',
      street: '2570 24TH STREET', city: 'ANYTOWN', state: 'CA', zip: '95825', country: 'USA', untrusted: [],
    });
  });

  it('reads an Ontario version 10 licence with YYYYMMDD dates and its licence number', () => {
    expect(parseAamva(ontarioV10)).toEqual({
      surname: 'SAMPLE', givenNames: 'JOHN MICHAEL', dateOfBirth: '1980-06-01', expirationDate: '2025-06-01', number: 'S1234-56789-01234',
      street: '123 MAIN ST', city: 'TORONTO', state: 'ON', zip: 'M5V2T6', country: 'CAN', untrusted: [],
    });
  });

  it('reads a Quebec version 03 licence (IIN 604428) with YYYYMMDD dates and DCT given names', () => {
    expect(parseAamva(quebecV03)).toMatchObject({ surname: 'TREMBLAY', givenNames: 'MARIE CLAIRE', dateOfBirth: '1985-10-04', expirationDate: '2027-01-31', number: 'T1234-041085-01', country: 'CAN', untrusted: [] });
  });

  it('reads a US version 03 licence with MMDDYYYY dates', () => {
    expect(parseAamva(texasV03)).toMatchObject({ surname: 'DOE', givenNames: 'JOHN PAUL', dateOfBirth: '1985-10-04', expirationDate: '2027-10-04', number: '12345678', zip: '78701', country: 'USA', untrusted: [] });
  });

  it('reads a version 01 licence: full name in DAA, YYYYMMDD dates', () => {
    expect(parseAamva(virginiaV01)).toMatchObject({ surname: 'SMITH', givenNames: 'JOHN QUINCY', dateOfBirth: '1970-02-15', expirationDate: '2029-02-15', number: 'T12345678', state: 'VA', country: 'USA', untrusted: [] });
  });

  it('keeps the spaces of a version 01 family name: DAA parts are split at the commas only', () => {
    expect(parseAamva(virginiaV01.replace('DAASMITH,JOHN,QUINCY', 'DAAVAN DER BERG,ANNA MARIE,QUINCY'))).toMatchObject({ surname: 'VAN DER BERG', givenNames: 'ANNA MARIE QUINCY' });
  });

  it('does not trust names the barcode flags as truncated (DDE, DDF, DDG)', () => {
    expect(parseAamva(californiaV08.replace('DDEN', 'DDET'))?.untrusted).toEqual(['surname']);
    expect(parseAamva(californiaV08.replace('DDFN', 'DDFT'))?.untrusted).toEqual(['givenNames']);
    expect(parseAamva(californiaV08.replace('DDGN', 'DDGT'))?.untrusted).toEqual(['givenNames']);
  });

  it('knows a Canadian issuer by its IIN when the country element is absent', () => {
    expect(parseAamva(ontarioV10.replace(`${LF}DCGCAN`, ''))?.country).toBe('CAN');
  });

  it('leaves an impossible date empty and untrusted', () => {
    const read = parseAamva(californiaV08.replace('DBB08311977', 'DBB13451977'));
    expect(read?.dateOfBirth).toBe('');
    expect(read?.untrusted).toContain('dateOfBirth');
    expect(parseAamva(californiaV08.replace('DBB08311977', 'DBB02301977'))?.untrusted).toContain('dateOfBirth');
  });

  it('does not trust dates out of order (birth after issue, issue after expiry)', () => {
    expect(parseAamva(californiaV08.replace('DBB08311977', 'DBB08312015'))?.untrusted).toEqual(['dateOfBirth', 'expirationDate']);
    expect(parseAamva(californiaV08.replace('DBA08312028', 'DBA08312010'))?.untrusted).toEqual(['dateOfBirth', 'expirationDate']);
  });

  it('ignores text that is not AAMVA', () => {
    expect(parseAamva('https://example.com')).toBeUndefined();
  });
});
