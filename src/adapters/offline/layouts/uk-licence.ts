import { foldText } from '../../../domain/rules';
import type { VizLine } from '../viz';
import { addressReads, EU_ADDRESS, euSpecs, numberRead, withBirthDate } from './eu-licence';
import { readLabelled } from './labelled';
import { chunks, type FieldRead } from './lines';

/**
 * The UK photocard licence: the EU model's numbered fields (eu-licence.ts), field 5 the DVLA driver
 * number followed by the card's issue number, field 8 the address on one line ("122 BURNS CRESCENT,
 * EDINBURGH, EH1 9GP"). The driver number encodes the holder (DVLA format, 16 characters): the
 * surname's first five letters (padded with 9), the birth year's decade digit, the birth month (plus
 * 50 for a woman), the day, the year's last digit, two initials (padded with 9), a digit and two check
 * characters. A number that encodes the surname and birth date read elsewhere on the card supports
 * all three: the cross-check dvlaSupport makes. Pure functions.
 */

const DVLA = /([A-Z9]{5})(\d)([0156]\d)([0-3]\d)(\d)([A-Z9]{2})(\d)([A-Z0-9]{2})/;

/** The DVLA number in field 5's text (its spaces and the issue number after it dropped). */
export function dvlaNumber(text: string): string | undefined {
  const squeezed = foldText(text).replace(/ /g, '');
  // OCR reads the surname's letters O and I as digits inside the number: the first five characters are letters or 9.
  const m = DVLA.exec(squeezed.slice(0, 5).replace(/0/g, 'O').replace(/1/g, 'I') + squeezed.slice(5));
  return m?.[0];
}

/** A UK licence's fields as printed. */
export function readUkLicence(lines: VizLine[]): FieldRead[] {
  const reads = readLabelled(lines, euSpecs('GBR', dvlaNumber));
  const unnumbered = reads.some((r) => r.field === 'document.number') ? undefined : driverNumber(lines);
  const all = [...reads, ...(unnumbered ? [unnumbered] : [])];
  return withBirthDate(all, lines, 'GBR', addressReads(lines, 'GBR', EU_ADDRESS, numberRead(all)));
}

/**
 * Field 5 whose number OCR lost ("EVANS658042W99WK 38" with no "5."): a word of exactly the driver
 * number's shape, at the start of its chunk, is the driver number wherever it stands (no other field
 * of the card has that shape). Its trust comes from the encoding's cross-check (dvlaSupport) or two reads, as field 5's.
 */
function driverNumber(lines: VizLine[]): FieldRead | undefined {
  for (const chunk of chunks(lines)) {
    const [first = ''] = foldText(chunk.text).replace(/^5 /, '').split(' ');
    const number = first.length === 16 ? dvlaNumber(first) : undefined;
    if (number && number.length === 16) return { field: 'document.number', value: number, lines: chunk.parts };
  }
  return undefined;
}

/** Which fields the driver number's encoding supports: surname (its first five letters), date of birth, initials, and the number itself when both agree. */
export interface DvlaSupport {
  number: boolean;
  surname: boolean;
  dateOfBirth: boolean;
  initials: boolean;
}

/** The cross-check of the driver number with the surname, birth date and given names read from their own fields. */
export function dvlaSupport(number: string, surname: string, dateOfBirth: string, givenNames: string): DvlaSupport {
  const m = DVLA.exec(number);
  if (!m) return { number: false, surname: false, dateOfBirth: false, initials: false };
  const [, name, decade, month, day, year, initials] = m as unknown as [string, string, string, string, string, string, string];
  const letters = foldText(surname).replace(/[^A-Z]/g, '');
  const surnameOk = letters !== '' && letters.slice(0, 5).padEnd(5, '9') === name;
  const mm = Number(month) > 50 ? Number(month) - 50 : Number(month);
  const dobOk = /^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth) && dateOfBirth[2] === decade && dateOfBirth[3] === year && Number(dateOfBirth.slice(5, 7)) === mm && dateOfBirth.slice(8, 10) === day;
  const given = foldText(givenNames).split(' ').filter(Boolean).map((g) => g[0]).join('').slice(0, 2).padEnd(2, '9');
  return { number: surnameOk && dobOk, surname: surnameOk, dateOfBirth: dobOk, initials: givenNames !== '' && given === initials };
}
