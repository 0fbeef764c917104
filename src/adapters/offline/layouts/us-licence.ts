import type { VizLine } from '../viz';
import { addressReads } from './eu-licence';
import { fieldNumber, type LabelSpec, readLabelled } from './labelled';
import { dateValue, type FieldRead, nameValue, numberValue } from './lines';

/**
 * US and Canadian licence and ID fronts (AAMVA DL/ID card design standard): fields by number and label,
 * 1 family name, 2 given names, 3 DOB, 4a ISS, 4b EXP, 4d the licence number (DL, DLN, LIC#, NUMBER),
 * 5 DD (the document discriminator: not the number), 8 the address (street, then "CITY, ST ZIP" under
 * it); cards without numbers print the labels alone (LN, FN, DOB, EXP, ISS, DL, ADDRESS), beside or
 * above their values. US dates month first; Canadian cards print year first. Pure functions.
 */

const NUMBER_WORDS = '(?:DLN|DL|LIC(?: NO)?|LICENSE NO|NUMBER|NO|ID)';
const label = (n: string, words: string) => new RegExp(`^(?:${fieldNumber(n)} ?(?:(?:${words})(?![A-Z]) ?)?|(?:${words})(?![A-Z]) ?)`);

export function usSpecs(country: string): LabelSpec[] {
  const date = (century: number) => (t: string) => dateValue(t, country, century);
  return [
    { field: 'person.surname', label: label('1', 'LN|LAST NAME|FAMILY NAME|SURNAME'), parse: nameValue },
    { field: 'person.given_names', label: label('2', 'FN|FIRST NAME|GIVEN NAMES?'), parse: nameValue },
    { field: 'person.date_of_birth', label: label('3', 'DOB|DATE OF BIRTH|BIRTH ?DATE'), parse: date(19) },
    { field: 'document.issue_date', label: label('4A', 'ISS|ISSUED|ISSUE DATE'), parse: date(20) },
    { field: 'document.expiration_date', label: label('4B', 'EXP|EXPIRES|EXPIRATION'), parse: date(20) },
    { field: 'document.number', label: label('4D', NUMBER_WORDS), parse: (t) => numberValue(t.split(' ')[0] ?? '') ?? numberValue(t) },
  ];
}

/** The address after field 8 or its label, on the raw text. */
const US_ADDRESS = /^\s*(?:8\s*[.,:]?\s+|ADDRESS\s*:?\s*|ADDR\s*:?\s*)/i;

/** A US or Canadian front's fields as printed. */
export function readUsLicence(lines: VizLine[], country: string): FieldRead[] {
  const others = [label('5', 'DD'), label('9', 'CLASS'), /^(?:1[0-9]|9A)(?![0-9])/, /^(?:SEX|HGT|WGT|EYES|HAIR|CLASS|REST|END)\b/];
  return [...readLabelled(lines, usSpecs(country), others), ...addressReads(lines, country, US_ADDRESS)];
}
