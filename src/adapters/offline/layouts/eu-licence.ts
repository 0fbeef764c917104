import type { VizLine } from '../viz';
import { addressUnder, fieldNumber, type LabelSpec, readAddress, readLabelled } from './labelled';
import { foldText } from '../../../domain/rules';
import { below, chunks, dateValue, type FieldRead, nameValue, numberValue } from './lines';

/**
 * EU driving licences (Directive 2006/126/EC, annex I: the photocard model), and the UK's, which keeps
 * the model: every field after its number, value on the same line. 1 surname, 2 given names, 3 date
 * (and place) of birth, 4a issue, 4b expiry, 4c issuing authority, 5 licence number, 8 address (where
 * the state prints it), 9 categories. Dates day first. Pure functions.
 */

/**
 * A field's number at the start of a chunk. Fields 2 to 9 may come with their period read as a zero
 * ("30 01.05.1957": 3. then the date): the model numbers no field 20 to 90 on the front.
 */
const at = (n: string) => new RegExp(`^(?:${fieldNumber(n)}|${/^[2-9]$/.test(n) ? `${n}[0O](?= )` : '$^'}) ?`);

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

/**
 * The raw-text field number of the address: "8." (its value may follow without a space: "8.138 VICTORIA
 * ROAD"), "8", or an 8 run into the street's name ("8AVENIDA DE LA CONSTITUCION 59": no house number is a
 * digit glued to three letters).
 */
export const EU_ADDRESS = /^\s*8\s*[.,:]\s*|^\s*8\s+|^\s*8(?=[A-Z]{3})/;

/** An EU licence's fields as printed (the address only where field 8 is printed). */
export function readEuLicence(lines: VizLine[], country: string): FieldRead[] {
  const reads = readLabelled(lines, euSpecs(country), [at('7'), at('8'), at('9'), at('4D')]);
  const glued = reads.some((r) => r.field === 'document.number') ? undefined : gluedNumber(lines, country);
  const all = [...reads, ...(glued ? [glued] : [])];
  return withBirthDate(all, lines, country, addressReads(lines, country, EU_ADDRESS, numberRead(all)));
}

/** Field 5 among the reads: the EU model prints the address (field 8, where printed) under it. */
export const numberRead = (reads: FieldRead[]): FieldRead | undefined => reads.find((r) => r.field === 'document.number');

/** The reads with field 3 placed by its row when its number was lost, then `rest`. */
export function withBirthDate(reads: FieldRead[], lines: VizLine[], country: string, rest: FieldRead[] = []): FieldRead[] {
  const birth = reads.some((r) => r.field === 'person.date_of_birth') ? undefined : unnumberedBirthDate(reads, lines, country);
  return [...reads, ...(birth ? [birth] : []), ...rest];
}

/**
 * Field 3 whose number OCR lost ("20.02.1972LEIPZIG", ".01.12.1977 NANTES"): the row printed right under
 * field 2, in its column, when it starts with a date. Placed by its position alone: a guess, never trusted.
 */
function unnumberedBirthDate(reads: FieldRead[], lines: VizLine[], country: string): FieldRead | undefined {
  const given = reads.find((r) => r.field === 'person.given_names');
  if (!given) return undefined;
  const all = chunks(lines);
  const row = all.find((c) => c.parts.some((p) => given.lines.includes(p)));
  const next = row && below(all, row);
  if (!next || !/^\d{1,2} \d{1,2} (?:19|20)\d{2}(?!\d)/.test(foldText(next.text))) return undefined;
  const value = dateValue(next.text, country, 19);
  return value ? { field: 'person.date_of_birth', value, lines: next.parts, guess: true } : undefined;
}

/** Licence numbers of a fixed shape (field 5), by issuing state: France 12 digits, Spain the DNI's 8 digits and letter, Italy, the Netherlands. */
const NUMBER_SHAPES: Record<string, RegExp> = { FRA: /^\d{12}$/, ESP: /^\d{8}[A-Z]$/, ITA: /^[A-Z]{2}\d{7}[A-Z]$/, NLD: /^\d{10}$/ };

/**
 * Field 5 read with its number glued to the value, the period lost ("5326319083676"): taken only where
 * the state's number has a fixed shape that the text fits without the leading 5 and not with it.
 */
function gluedNumber(lines: VizLine[], country: string): FieldRead | undefined {
  const shape = NUMBER_SHAPES[country];
  if (!shape) return undefined;
  for (const chunk of chunks(lines)) {
    const text = foldText(chunk.text).split(' ')[0] ?? '';
    if (text.startsWith('5') && shape.test(text.slice(1)) && !shape.test(text)) return { field: 'document.number', value: text.slice(1), lines: chunk.parts };
  }
  return undefined;
}

/**
 * Field 8 as the four address fields, each read from the same lines; without its label, the address under
 * `before` (the field printed before it: addressUnder), each part a guess.
 */
export function addressReads(lines: VizLine[], country: string, label = EU_ADDRESS, before?: FieldRead): FieldRead[] {
  const labelled = readAddress(lines, label, country);
  const a = labelled ?? addressUnder(lines, before, label, country);
  if (!a) return [];
  const read = (field: string, value: string): FieldRead[] => (value ? [{ field, value, lines: a.lines, ...(!labelled && { guess: true as const }) }] : []);
  return [...read('address.street', a.street), ...read('address.city', a.city), ...read('address.state', a.state), ...read('address.zip', a.zip)];
}
