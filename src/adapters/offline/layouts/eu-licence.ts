import type { VizLine } from '../viz';
import { fieldNumber, type LabelSpec, readAddress, readLabelled } from './labelled';
import { dateValue, type FieldRead, nameValue, numberValue } from './lines';

/**
 * EU driving licences (Directive 2006/126/EC, annex I: the photocard model), and the UK's, which keeps
 * the model: every field after its number, value on the same line. 1 surname, 2 given names, 3 date
 * (and place) of birth, 4a issue, 4b expiry, 4c issuing authority, 5 licence number, 8 address (where
 * the state prints it), 9 categories. Dates day first. Pure functions.
 */

const at = (n: string) => new RegExp(`^${fieldNumber(n)} ?`);

/** The numbered fields of the EU model, for a licence issued in `country` (its date order and number shape). */
export function euSpecs(country: string, number: (text: string) => string | undefined = euNumber): LabelSpec[] {
  return [
    { field: 'person.surname', label: at('1'), parse: nameValue },
    { field: 'person.given_names', label: at('2'), parse: nameValue },
    { field: 'person.date_of_birth', label: at('3'), parse: (t) => dateValue(t, country, 19) },
    { field: 'document.issue_date', label: at('4A'), parse: (t) => dateValue(t, country, 20) },
    { field: 'document.expiration_date', label: at('4B'), parse: (t) => dateValue(t, country, 20) },
    { field: 'document.issuing_entity', label: at('4C'), parse: (t) => (/[A-Z]{2,}/.test(t) ? t : undefined) },
    { field: 'document.number', label: at('5'), parse: number },
  ];
}

/** Field 5 of most states: the first run of letters and digits (a second, short number after a wide gap is an issue count). */
export function euNumber(text: string): string | undefined {
  const [first = ''] = text.split(/ {2,}/);
  return numberValue(first) ?? numberValue(text.split(' ')[0] ?? '');
}

/** The raw-text field number of the address: "8." or "8". */
export const EU_ADDRESS = /^\s*8\s*[.,:]?\s+/;

/** An EU licence's fields as printed (the address only where field 8 is printed). */
export function readEuLicence(lines: VizLine[], country: string): FieldRead[] {
  const reads = readLabelled(lines, euSpecs(country), [at('7'), at('8'), at('9'), at('4D')]);
  return [...reads, ...addressReads(lines, country)];
}

/** Field 8 as the four address fields, each read from the same lines. */
export function addressReads(lines: VizLine[], country: string, label = EU_ADDRESS): FieldRead[] {
  const a = readAddress(lines, label, country);
  if (!a) return [];
  const read = (field: string, value: string): FieldRead[] => (value ? [{ field, value, lines: a.lines }] : []);
  return [...read('address.street', a.street), ...read('address.city', a.city), ...read('address.state', a.state), ...read('address.zip', a.zip)];
}
