import { allIso3, countryByIso3, mrzCountry } from '../../../src/domain/countries';
import { countryTableText } from '../../../scripts/countries';

describe('MRZ country codes (ICAO 9303)', () => {
  it('accepts ISO 3166-1 alpha-3 codes as they are', () => {
    expect(mrzCountry('FRA')).toEqual({ known: true, iso3: 'FRA' });
    expect(mrzCountry('USA')).toEqual({ known: true, iso3: 'USA' });
  });

  it('maps Germany written D<< and the British nationality codes to the API alpha-3', () => {
    expect(mrzCountry('D<<')).toEqual({ known: true, iso3: 'DEU' });
    expect(mrzCountry('D')).toEqual({ known: true, iso3: 'DEU' });
    for (const code of ['GBD', 'GBN', 'GBO', 'GBS', 'GBP']) expect(mrzCountry(code)).toEqual({ known: true, iso3: 'GBR' });
  });

  it('knows the ICAO codes that name no API country, and maps them to none', () => {
    for (const code of ['UNO', 'UNA', 'UNK', 'XXA', 'XXB', 'XXC', 'XXX', 'EUE', 'RKS', 'XOM', 'XPO']) expect(mrzCountry(code)).toEqual({ known: true, iso3: undefined });
  });

  it('knows nothing of OCR misreads such as UTD, PDL and OHE', () => {
    for (const code of ['UTD', 'PDL', 'OHE', 'D0<', '']) expect(mrzCountry(code)).toEqual({ known: false, iso3: undefined });
  });
});

describe('the country table', () => {
  it('is the maintained i18n-iso-countries data as generated (run `npm run countries` after updating the package)', () => {
    const expected = countryTableText()
      .split('\n')
      .map((line) => line.split(' '))
      .map(([iso3 = '', iso2 = '', ...name]) => ({ iso3, iso2, name: name.join(' ') }));
    expect(allIso3()).toEqual(expected.map((c) => c.iso3));
    expect(allIso3().map((c) => countryByIso3(c))).toEqual(expected);
    expect(countryByIso3('ALA')).toEqual({ iso3: 'ALA', iso2: 'AX', name: 'Åland Islands' });
    expect(countryByIso3('XYZ')).toBeUndefined();
  });
});
