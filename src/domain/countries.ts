// The core entry, not the package's Node entry, which loads and registers all ~80 languages (700 KB).
import countries from 'i18n-iso-countries/index';
import en from 'i18n-iso-countries/langs/en.json';

countries.registerLocale(en);

/** A country as the API shows it. */
export interface Country {
  name: string;
  iso2: string;
  iso3: string;
}

/** Every ISO 3166-1 alpha-3 code known to the maintained package, sorted. */
export const ALL_ISO3: readonly string[] = Object.keys(countries.getAlpha3Codes()).sort();
const iso3Set = new Set(ALL_ISO3);

export function isIso3(code: string): boolean {
  return iso3Set.has(code);
}

/** Looks up an alpha-3 code (already upper-cased); undefined when unknown. */
export function countryByIso3(iso3: string): Country | undefined {
  if (!iso3Set.has(iso3)) return undefined;
  const iso2 = countries.alpha3ToAlpha2(iso3);
  const name = countries.getName(iso3, 'en');
  if (!iso2 || !name) return undefined;
  return { name, iso2, iso3 };
}
