import { countryByIso3 } from '../../domain/countries';
import type { ExpectedData } from '../../domain/entities';
import type { ExtractedData } from '../../domain/rules';
import { findValue, normalizeText } from './text-search';

/** Confidence per extracted_data path (`person.surname` → 0.95). */
export type Confidence = Record<string, number>;

/** Sets an extracted_data field by its dotted path (`person.surname`). */
export function put(data: ExtractedData, path: string, value: string): void {
  const [group, key] = path.split('.') as [keyof ExtractedData, string];
  (data[group] as Record<string, string>)[key] = value;
}

export function addressFound(lines: string[], expected: ExpectedData | null): boolean {
  if (!expected) return false;
  const name = `${expected.person.first_name} ${expected.person.last_name}`;
  return Boolean(findValue(lines, name) && (!expected.address.street || findValue(lines, expected.address.street)));
}

/** Words of letterheads, table headers and services: a line with one of them is not a person's name. */
const NOT_A_NAME =
  /\b(ACCOUNT|STATEMENT|CUSTOMER|SUPPORT|SERVICES?|DEPARTMENT|INVOICE|BILL|BILLING|DATE|TOTAL|AMOUNT|PAGE|BANK|BALANCE|PAYMENT|DUE|LTD|LLC|INC|GMBH|PLC|ENERGY|POWER|WATER|GAS|ELECTRICITY|ELECTRIC|TELECOM|PERIOD|NUMBER|REFERENCE|TEL|PHONE|EMAIL|WWW|COM|SUMMARY|DESCRIPTION|QTY|PRICE|TAX|VAT)\b/;

/** Two to four words of letters only, none a letterhead word: "ANNA SMITH", not "CUSTOMER SUPPORT DEPARTMENT". */
export function looksLikeName(line: string): boolean {
  const words = line.split(' ').filter(Boolean);
  return words.length >= 2 && words.length <= 4 && words.every((w) => /^\p{L}+$/u.test(w)) && !NOT_A_NAME.test(line);
}

/** A line with a numeric date (`11 02 2019`, `7/18/2008` once folded) or a date label: its year is no postal code. */
const DATE_LIKE = /\b\d{1,2} \d{1,2} (?:19|20)\d{2}\b|\b(?:19|20)\d{2} \d{1,2} \d{1,2}\b|\bDATE\b|\bPERIOD\b/;

const POSTAL = /\b(\d{5}(?:-\d{4})?|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|\d{4} ?[A-Z]{2}|\d{4,5})\b/;

/**
 * The city line of an address block split into city, state and postal code: `AUSTIN TX 78701` →
 * AUSTIN / TX / 78701, `LONDON SW1A 2AA` → LONDON / '' / SW1A 2AA. Without a postal code the line is the city.
 */
export function cityLine(line: string): { city: string; state: string; zip: string } {
  const m = POSTAL.exec(line);
  if (!m) return { city: line, state: '', zip: '' };
  const zip = m[1] as string;
  const before = line.slice(0, m.index).trim();
  // A two-letter word right before the postal code is a state or province (US, Canada, Australia's are 2-3).
  const state = /(?:^|\s)([A-Z]{2,3})$/.exec(before)?.[1] ?? '';
  const city = (state ? before.slice(0, before.length - state.length) : before).trim();
  return { city: city || line, state: city ? state : '', zip };
}

/**
 * Proof of address: the expected name, street, city and postal code are searched in the page's
 * text; without expected data, the block above the first line with a postal code is taken.
 */
export function fillAddress(data: ExtractedData, confidence: Confidence, lines: string[], expected: ExpectedData | null, country: string, quality: number): void {
  const set = (path: string, value: string, score: number) => {
    put(data, path, value);
    confidence[path] = Math.round(score * quality * 100) / 100;
  };
  if (expected) {
    const name = findValue(lines, `${expected.person.first_name} ${expected.person.last_name}`) ?? findValue(lines, `${expected.person.last_name} ${expected.person.first_name}`);
    if (name) set('person.full_name', name.text, name.score);
    const parts: [string, string][] = [
      ['address.street', expected.address.street],
      ['address.city', expected.address.city],
      ['address.state', expected.address.state],
      ['address.zip', expected.address.postal_code],
    ];
    for (const [path, value] of parts) {
      const hit = value ? findValue(lines, value) : undefined;
      if (hit) set(path, hit.text, hit.score);
    }
  } else {
    // A guess from the layout: reported, never trusted (below the rules' 0.6), so it can only lead to review.
    const at = lines.findIndex((l, i) => i >= 1 && POSTAL.test(normalizeText(l)) && !DATE_LIKE.test(normalizeText(l)));
    const street = at >= 1 ? normalizeText(lines[at - 1] as string) : '';
    if (at >= 1 && /\d/.test(street) && /[A-Z]{2}/.test(street)) {
      const name = lines.slice(Math.max(0, at - 4), at - 1).reverse().map(normalizeText).find(looksLikeName);
      if (name) set('person.full_name', name, 0.5);
      set('address.street', street, 0.5);
      const place = cityLine(normalizeText(lines[at] as string));
      set('address.city', place.city, 0.5);
      if (place.state) set('address.state', place.state, 0.5);
      if (place.zip) set('address.zip', place.zip, 0.5);
    }
  }
  const a = data.address;
  if (a.street || a.city || a.zip) {
    set('address.full', [a.street, a.city, a.state, a.zip].filter(Boolean).join(' '), Math.min(...['address.street', 'address.city', 'address.zip'].map((p) => confidence[p] ?? 0.5)));
    set('address.country', country, 0.8);
  }
  data.document.identified = data.person.full_name || a.street ? 'true' : 'false';
  data.document.country_code = country;
  data.document.country_name = countryByIso3(country)?.name ?? '';
  const first = lines.find((l) => normalizeText(l).length > 3);
  if (first) data.document.issuing_entity = normalizeText(first);
}
