import { parse } from 'aamva-parser';

/** Fields of a US/Canadian licence or ID card from its PDF417 barcode text (AAMVA DL/ID standard). */
export interface LicenceFields {
  surname: string;
  givenNames: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  /** YYYY-MM-DD */
  expirationDate: string;
  number: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

/** aamva-parser builds dates with the local-time constructor: read them back with local getters. */
const isoDate = (d: Date | null | undefined): string =>
  d instanceof Date && !Number.isNaN(d.getTime())
    ? `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
    : '';

/** Parses AAMVA text; undefined when it is not an AAMVA barcode. */
export function parseAamva(text: string): LicenceFields | undefined {
  if (!text.includes('ANSI ') && !text.includes('AAMVA')) return undefined;
  let p: ReturnType<typeof parse>;
  try {
    p = parse(text);
  } catch {
    return undefined;
  }
  const given = [p.firstName, p.middleName].filter((x) => x && x !== 'NONE').join(' ');
  const zip = (p.postalCode ?? '').replace(/0000$/, '').trim();
  return {
    surname: p.lastName ?? '',
    givenNames: given,
    dateOfBirth: isoDate(p.dateOfBirth),
    expirationDate: isoDate(p.expirationDate),
    number: p.driversLicenseId ?? '',
    street: p.streetAddress ?? '',
    city: p.city ?? '',
    state: p.state ?? '',
    zip: zip.length === 9 ? `${zip.slice(0, 5)}` : zip,
    country: p.countryCode === 'CAN' || String(p.country) === 'CAN' ? 'CAN' : 'USA',
  };
}
