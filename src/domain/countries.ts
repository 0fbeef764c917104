import { countryTable } from './country-table';

/** A country as the API shows it. */
export interface Country {
  name: string;
  iso2: string;
  iso3: string;
}

let byIso3: ReadonlyMap<string, Country> | undefined;

/**
 * ISO 3166-1 from the maintained i18n-iso-countries package, as a table generated from it
 * (scripts/countries.ts; a unit test keeps the two equal): the package itself would add ~24 KB to
 * every function that validates a country. Built on first use, not on import: inflating and indexing
 * it cost every function's cold start ~3 ms on this machine, and a function pays it now on the first
 * request that looks a country up (not at all if none does, as in most GETs and the widget's files).
 */
function countries(): ReadonlyMap<string, Country> {
  return (byIso3 ??= new Map(
    countryTable()
      .split('\n')
      .map((line) => {
        const [iso3 = '', iso2 = ''] = line.split(' ', 2);
        return [iso3, { iso3, iso2, name: line.slice(iso3.length + iso2.length + 2) }];
      }),
  ));
}

/** Every ISO 3166-1 alpha-3 code, sorted. */
export function allIso3(): string[] {
  return [...countries().keys()];
}

export function isIso3(code: string): boolean {
  return countries().has(code);
}

/** Looks up an alpha-3 code (already upper-cased); undefined when unknown. */
export function countryByIso3(iso3: string): Country | undefined {
  const country = countries().get(iso3);
  return country && { ...country };
}

/**
 * ICAO 9303 part 3 codes that are not ISO 3166-1 alpha-3, with the API's alpha-3 where the code names
 * a country the API knows. Codes with no API country (organisations, stateless persons, Kosovo, which
 * the ISO list the API uses does not carry) are valid MRZ codes but map to nothing.
 */
const ICAO_EXTRA: Readonly<Record<string, string | undefined>> = {
  D: 'DEU',
  GBD: 'GBR', // British Overseas Territories Citizen
  GBN: 'GBR', // British National (Overseas)
  GBO: 'GBR', // British Overseas Citizen
  GBP: 'GBR', // British Protected Person
  GBS: 'GBR', // British Subject
  UNO: undefined, // United Nations Organization or its officials
  UNA: undefined, // United Nations specialized agency or its officials
  UNK: undefined, // Resident of Kosovo (UNMIK travel document)
  RKS: undefined, // Kosovo: not in the ISO 3166-1 list the API uses
  EUE: undefined, // European Union
  XXA: undefined, // Stateless person (1954 Convention)
  XXB: undefined, // Refugee (1951 Convention)
  XXC: undefined, // Refugee (other than 1951 Convention)
  XXX: undefined, // Person of unspecified nationality
  XOM: undefined, // Sovereign Military Order of Malta
  XPO: undefined, // INTERPOL
  XBA: undefined, // African Development Bank
  XIM: undefined, // African Export-Import Bank
  XCC: undefined, // Caribbean Community (CARICOM)
  XCE: undefined, // Council of Europe
  XCO: undefined, // Common Market for Eastern and Southern Africa
  XEC: undefined, // Economic Community of West African States
  XES: undefined, // Organisation of Eastern Caribbean States
  XMP: undefined, // Parliamentary Assembly of the Council of Europe
  XDC: undefined, // Southern African Development Community
};

/** An MRZ code field read: whether ICAO 9303 knows the code, and the API's alpha-3 it stands for (if any). */
export interface MrzCountry {
  known: boolean;
  iso3: string | undefined;
}

/**
 * Validates an MRZ country code (issuing state, nationality) against ICAO 9303: ISO 3166-1 alpha-3
 * plus ICAO's own codes, fillers removed (`D<<` is Germany). A code that validates against nothing
 * (an OCR misread such as `UTD`) is not known.
 */
export function mrzCountry(code: string): MrzCountry {
  const c = code.replace(/</g, '').toUpperCase();
  if (isIso3(c)) return { known: true, iso3: c };
  if (Object.hasOwn(ICAO_EXTRA, c)) return { known: true, iso3: ICAO_EXTRA[c] };
  return { known: false, iso3: undefined };
}
