import { foldText } from '../../../domain/rules';
import type { VizLine } from '../viz';
import { addressReads } from './eu-licence';
import { fieldNumber, type LabelSpec, readLabelled } from './labelled';
import { below, chunks, dateValue, type FieldRead, nameValue, numberText } from './lines';

/**
 * US and Canadian licence and ID fronts (AAMVA DL/ID card design standard): fields by number and label,
 * 1 family name, 2 given names, 3 DOB, 4a ISS, 4b EXP, 4d the licence number (DL, DLN, LIC#, NUMBER),
 * 5 DD (the document discriminator: not the number), 8 the address (street, then "CITY, ST ZIP" under
 * it); cards without numbers print the labels alone (LN, FN, DOB, EXP, ISS, DL, ADDRESS), beside or
 * above their values. Fields 1 and 2 may be printed as one ("1,2 NAME/NOM": "SURNAME, GIVEN NAMES", on
 * one line or the given names on the next). Canadian cards print their labels in English and French
 * ("4a ISS/DÉL", "3 DOB/DDN", "4d NUMBER/NUMÉRO") or in French alone (Quebec: "1 NOM", "2 PRÉNOM",
 * "4b EXPIRATION"), their numbers in hyphenated groups, their dates year first. US dates month first.
 * Pure functions.
 */

const NUMBER_WORDS = '(?:DLN|DL|LIC(?: NO)?|LICENSE NO|NUMBER|NO|ID)';
/** The French labels of Canadian cards (after the English half or alone), as folded. */
const FRENCH: Record<string, string> = {
  surname: 'NOM(?: DE FAMILLE)?',
  given: 'PRENOM?S?',
  birth: 'DDN|DATE DE NAISSANCE|NAISSANCE',
  issue: 'DEL|DATE DE DELIVRANCE|DELIVRANCE|EMIS',
  expiry: 'DATE D ?EXPIRATION|EXPIRATION',
  number: 'NUMERO(?: DE PERMIS)?|(?:NO )?PERMIS(?: NO)?',
};
/**
 * A field's number and label word, or either alone. The word may follow the number without a space and
 * start with a digit OCR read for a letter ("4a1ss" is 4a ISS): tried before the number alone, which
 * must not run into a longer number.
 */
const label = (n: string, words: string) => {
  // Field 1 read as the letter I before its label word ("INOM COTE").
  const number = n.length > 1 ? `${n[0]} ?${n.slice(1)}` : n === '1' ? '[1I]' : n;
  // The label in one language or both, their slash lost and maybe their space ("LNNOM", "DLNONO PERMIS").
  const phrase = `(?:${words})(?: ?(?:${words}))*(?![A-Z])`;
  return new RegExp(`^(?:${number} ?${phrase} ?|${fieldNumber(n)} ?|${phrase} ?)`);
};

export function usSpecs(country: string): LabelSpec[] {
  const date = (century: number) => (t: string) => dateValue(t, country, century);
  const fr = (key: string) => (country === 'CAN' ? `|${FRENCH[key]}` : '');
  return [
    // Field 1 but not the "1,2" of a name printed whole (combinedName).
    { field: 'person.surname', label: new RegExp(`^(?!1 ?2(?![0-9]))${label('1', `LN|LAST NAME|FAMILY NAME|SURNAME${fr('surname')}`).source.slice(1)}`), parse: nameValue },
    { field: 'person.given_names', label: label('2', `FN|FIRST NAME|GIVEN NAMES?${fr('given')}`), parse: nameValue },
    { field: 'person.date_of_birth', label: label('3', `DOB|DATE OF BIRTH|BIRTH ?DATE${fr('birth')}`), parse: date(19) },
    { field: 'document.issue_date', label: label('4A', `[I1L]SS|ISSUED|ISSUE DATE${fr('issue')}`), parse: date(20) },
    { field: 'document.expiration_date', label: label('4B', `EXP|EXPIRES|EXPIRATION${fr('expiry')}`), parse: date(20) },
    { field: 'document.number', label: label('4D', `${NUMBER_WORDS}${fr('number')}`), parse: gluedNumber },
  ];
}

/**
 * The licence number after field 4d: a number label OCR glued to it ("4d DLY2312253": DL, then Y2312253;
 * "4dNUMEROC7371-462530-22": Quebec's NUMÉRO, then C7371-462530-22) is the label's when what follows is
 * a number still.
 */
export function gluedNumber(text: string): string | undefined {
  const m = /^(?:NUMERO|NUMBER|PERMIS|LICENSE|DLN|DL|LIC|NO)(?=[A-Z]?\d)/.exec(text);
  return (m && numberText(text.slice(m[0].length))) || numberText(text);
}

/** The address after field 8 or its label (English, French, or both: "8 ADDRESS/ADRESSE"), on the raw text. */
export const US_ADDRESS = /^\s*(?:8\s*[.,:]?\s*)?(?:ADDRESS|ADRESSE|ADDR)(?![A-Z])(?:\s*\/?\s*(?:ADRESSE|ADDRESS)(?![A-Z]))?\s*:?\s*|^\s*8\s*[.,:]?\s+/i;

/**
 * Fields 10 to 19 and 9a (sex, height, eyes...), but not a date that starts like one: "11/23/2003" is a
 * value (month 11), not field 11.
 */
const FIELD_10_TO_19 = /^(?:1[0-9]|9A)(?![0-9])(?![ -]\d{1,2}[ -]\d{2,4}(?![0-9]))/;

/** Labels of the other fields of these cards, in English and (Canadian cards) French. */
const OTHERS = [label('5', 'DD'), label('9', 'CLASS|CAT|CLASSE'), FIELD_10_TO_19, /^(?:SEX|SEXE|HGT|HAUT|TAILLE|WGT|EYES|YEUX|HAIR|CLASS|CLASSE|CAT|REST|COND|END)\b/];

/** Fields 1 and 2 printed as one: "1,2" (not a date's "12/03/2034") or NAME / NOM as their label. */
const NAME_LABEL = /^(?:1 ?2(?![0-9])(?![ -]\d{1,2}[ -]\d{2,4}(?![0-9])) ?(?:(?:NAME|NOM)(?![A-Z]) ?)*|(?:NAME|NOM)(?: (?:NAME|NOM))?(?![A-Z]) ?)/;

/**
 * The name printed whole after "1,2" or NAME/NOM: family name, comma, given names, on the label's line,
 * under it, or the family name and its comma on one line and the given names on the next. Without the
 * comma the two cannot be told apart: nothing is read.
 */
export function combinedName(lines: VizLine[]): FieldRead[] {
  const all = chunks(lines);
  for (const chunk of all) {
    const m = NAME_LABEL.exec(foldText(chunk.text));
    if (!m) continue;
    // The raw text after the label (its punctuation kept: the comma splits the name), else the chunk under it.
    const rawRest = chunk.text.replace(/^\s*1\s*[,.]?\s*2(?![0-9])\s*/, '').replace(/^(?:NAME|NOM)\b\s*(?:\/?\s*(?:NAME|NOM)\b)?\s*[:.]?\s*/i, '').trim();
    const under = below(all, chunk);
    const [text, from] = /[\p{L}]/u.test(rawRest) ? [rawRest, [chunk]] : under ? [under.text, [chunk, under]] : ['', []];
    const comma = text.indexOf(',');
    if (comma < 0) continue;
    const surname = nameValue(text.slice(0, comma));
    let given = nameValue(text.slice(comma + 1));
    const last = from.at(-1) as typeof chunk;
    const next = given ? undefined : below(all, last);
    if (!given && next) given = nameValue(next.text);
    if (!surname || !given) continue;
    const parts = [...from, ...(next ? [next] : [])].flatMap((c) => c.parts);
    return [
      { field: 'person.surname', value: surname, lines: parts },
      { field: 'person.given_names', value: given, lines: parts },
    ];
  }
  return [];
}

/** A US or Canadian front's fields as printed (the name printed whole, where it is, before fields 1 and 2). */
export function readUsLicence(lines: VizLine[], country: string): FieldRead[] {
  const name = combinedName(lines);
  const reads = readLabelled(lines, usSpecs(country), [...OTHERS, NAME_LABEL]).filter((r) => !name.some((n) => n.field === r.field));
  const address = addressReads(lines, country, US_ADDRESS, [...name, ...reads].find((r) => r.field === 'person.given_names'));
  const named = [...name, ...reads].some((r) => r.field === 'person.surname' || r.field === 'person.given_names');
  return [...name, ...reads, ...(named ? [] : namesOverAddress(lines, address)), ...address];
}

/**
 * Fields 1 and 2 whose numbers OCR lost both (printed small before the names, the detector may not find
 * them): on the AAMVA design the family name and the given names are the two rows printed right above
 * the address (field 8), in its column. Placed by their position alone: guesses, never trusted.
 */
function namesOverAddress(lines: VizLine[], address: FieldRead[]): FieldRead[] {
  const first = address[0]?.lines[0];
  if (!first) return [];
  const all = chunks(lines);
  const over = (c: VizLine) => {
    const h = c.bottom - c.top;
    return all.filter((o) => o !== c && o.bottom <= c.top + h / 2 && c.top - o.bottom < h && Math.abs(o.left - c.left) < 2 * h).sort((a, b) => b.bottom - a.bottom)[0];
  };
  const start = all.find((c) => c.parts.includes(first));
  const givenRow = start && over(start);
  const surnameRow = givenRow && over(givenRow);
  const given = givenRow && nameValue(givenRow.text);
  const surname = surnameRow && nameValue(surnameRow.text);
  if (!given || !surname) return [];
  return [
    { field: 'person.surname', value: surname, lines: surnameRow.parts, guess: true },
    { field: 'person.given_names', value: given, lines: givenRow.parts, guess: true },
  ];
}
