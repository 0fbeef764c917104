import { distance } from 'fastest-levenshtein';
import { foldText } from '../../../domain/rules';
import { cityLine } from '../address';
import type { VizLine } from '../viz';
import { afterLabel, below, type Chunk, chunks, type FieldRead, foldValue, joinParts, runsOn } from './lines';

/**
 * Fields read by what is printed before them: a field number ("1.", "4b") or a label ("DOB", "NOM /
 * Surname"), the value after it on its chunk or, when nothing that parses follows, on the chunk under it
 * (labels printed small above their values). Shared by the layout families (eu-licence.ts,
 * us-licence.ts, id-front.ts), which give the labels and how each value parses. Pure functions.
 */

/** One field of a layout: its label at the start of a folded chunk, and how its value is taken from the text after it. */
export interface LabelSpec {
  field: string;
  label: RegExp;
  parse: (text: string) => string | undefined;
}

/**
 * A field number as printed, not the start of a longer number: `1` but not `12`, `4a` / `4 A`. A number
 * with a letter may run into its value ("4a13.11.2018"): no field number is longer.
 */
export const fieldNumber = (n: string): string => (n.length > 1 ? `${n[0]} ?${n.slice(1)}` : `${n}(?![0-9])`);

/**
 * Every field of `specs` found on the page: the first chunk (top to bottom) whose folded text starts with
 * the field's label and whose value parses. Text after the label that is another field's label ("NOM /
 * Surname") is skipped; the chunk under a bare label is taken when it is no label itself.
 */
export function readLabelled(lines: VizLine[], specs: LabelSpec[], others: RegExp[] = []): FieldRead[] {
  const labels = [...specs.map((s) => s.label), ...others];
  const all = chunks(lines).flatMap((c) => segments(c, labels));
  const isLabel = (c: Segment) => labels.some((l) => l.test(c.folded));
  const out: FieldRead[] = [];
  for (const spec of specs) {
    for (const chunk of all) {
      const rest = afterLabel(chunk.folded, spec.label);
      if (rest === undefined) continue;
      const under = ownPart(below(all, chunk), chunk, all.filter(isLabel));
      const value = under && !isLabel(under) ? spec.parse(under.folded) : undefined;
      // Words after a label printed small over a value in the values' type size, or words that are a label's
      // misread ("NOM / SUMAME"): the rest of the label, not a value.
      const remaining = gluedLabel(stripLabels(rest, labels));
      // (Words only: digits after the label are a value beside it, "4d DLY2312253", whatever the row under it.)
      const smallLabel = value !== undefined && under !== undefined && chunk.bottom - chunk.top < SMALL_LABEL * (under.bottom - under.top) && !/\d/.test(remaining);
      // (Only after a label of words: after a field number, "1. PEACE" is a surname.)
      const wordLabel = /[A-Z]/.test(chunk.folded.slice(0, chunk.folded.length - rest.length));
      const own = rest === '' || smallLabel || (wordLabel && labelWords(remaining)) ? undefined : spec.parse(remaining);
      if (own) {
        out.push({ field: spec.field, value: own, lines: chunk.parts });
        break;
      }
      if (under && value) {
        out.push({ field: spec.field, value, lines: [...chunk.parts, ...under.parts] });
        break;
      }
    }
  }
  // A family name whose number OCR lost ("1" read as a comma, or not at all): the name line right above the given names, aligned with it.
  const given = out.find((r) => r.field === 'person.given_names');
  const surnameSpec = specs.find((s) => s.field === 'person.surname');
  if (given && surnameSpec && !out.some((r) => r.field === 'person.surname')) {
    const givenLine = all.find((c) => c.parts.some((p) => given.lines.includes(p)) && afterLabel(c.folded, specs.find((s) => s.field === 'person.given_names')?.label ?? /$^/) !== undefined);
    const over = givenLine && all.filter((c) => c !== givenLine && c.bottom <= givenLine.top + (givenLine.bottom - givenLine.top) / 2 && givenLine.top - c.bottom < 1.5 * (givenLine.bottom - givenLine.top)).filter((c) => Math.abs(c.left - givenLine.left) < 2 * (givenLine.bottom - givenLine.top)).sort((a, b) => b.bottom - a.bottom)[0];
    const value = over && !isLabel(over) ? surnameSpec.parse(valueSized(over).replace(/^[^A-Z]+/, '')) : undefined;
    if (over && value) out.push({ field: 'person.surname', value, lines: over.parts, guess: true });
  }
  return out;
}

/**
 * A row's text without the parts before its value printed in the labels' smaller type: field 1 read as
 * a letter in its own box ("N" beside "MILLER", the number's box under SMALL_LABEL of the value's height).
 */
function valueSized(row: Segment): string {
  const tallest = Math.max(...row.parts.map((p) => p.bottom - p.top));
  const first = row.parts.findIndex((p) => p.bottom - p.top >= SMALL_LABEL * tallest);
  return first > 0 ? foldValue(joinParts(row.parts.slice(first))) : row.folded;
}

/**
 * The part of a row under `label` that is its value: where labels stand side by side over their values
 * ("3 DOB/DDN  4a ISS/DEL" over "1975/12/18  2022/11/23", which the row joins into one chunk), each part
 * of the row belongs to the nearest label starting at or before it on the label's row.
 */
function ownPart(under: Segment | undefined, label: Segment, labels: Segment[]): Segment | undefined {
  if (!under || under.parts.length < 2) return under;
  const h = Math.max(1, label.bottom - label.top);
  const row = labels.filter((l) => Math.abs((l.top + l.bottom) / 2 - (label.top + label.bottom) / 2) < h / 2);
  const owner = (p: VizLine) => row.filter((l) => l.left <= p.left + h).sort((a, b) => b.left - a.left)[0];
  const parts = under.parts.filter((p) => owner(p) === label || owner(p) === undefined);
  if (parts.length === under.parts.length || parts.length === 0) return under;
  const folded = foldValue(joinParts(parts));
  return { ...under, parts, text: folded, folded, left: Math.min(...parts.map((p) => p.left)), right: Math.max(...parts.map((p) => p.right)) };
}

/** Type size ratio under which a label's line is in the labels' smaller type than the value under it. */
const SMALL_LABEL = 0.85;

/** Words of the labels these layouts print (second-language halves included), as OCR may misread them. */
const LABEL_WORDS = ['SURNAME', 'GIVEN', 'NAMES', 'NAME', 'DATE', 'BIRTH', 'EXPIRY', 'DOCUMENT', 'NUMBER', 'NATIONALITY', 'PLACE', 'SEX', 'ISSUE', 'AUTHORITY', 'SIGNATURE', 'NOM', 'PRENOMS', 'NAISSANCE', 'EXPIRATION', 'VORNAMEN', 'NACHNAME', 'APELLIDOS', 'NOMBRE'];

/** Whether every word of a text is a label word or one OCR misread (two edits from a long word, one from a shorter). */
function labelWords(text: string): boolean {
  const words = text.split(' ').filter(Boolean);
  return words.length > 0 && words.every((w) => LABEL_WORDS.some((l) => distance(w, l) <= (l.length >= 6 ? 2 : l.length >= 4 ? 1 : 0)));
}

/** A chunk, or the part of it one field holds, with its folded text. */
interface Segment extends Chunk {
  folded: string;
}

/**
 * Field numbers and US labels that start a field in the middle of a row OCR read as one line ("4a ISS
 * 05/01/2031 4b EXP 12/07/2041"), and a field number glued to the whole date before it, the space
 * between two fields lost ("4a DELIVRANCE 2021-10-024b EXPIRATION 2031-08-04", "4a. 01.02.20204b.").
 */
const MID_LABEL = / (?=4 ?[A-D](?![0-9])|(?:DOB|EXP|ISS|CLASS|SEX|HGT|WGT|EYES|END|RESTR?|DD)(?![A-Z]))|(?<=(?:^| )(?:\d{4}-\d{2}-\d{2}|\d{2}[ -]\d{2}[ -]\d{4}|\d{4} \d{2} \d{2}))(?=4 ?[A-D](?![0-9]))/;

/**
 * A chunk cut where another field starts: at a part that begins with a label, and inside a part's text
 * at a field number or US label (MID_LABEL). Each piece keeps the chunk's box and the parts it came from.
 */
function segments(chunk: Chunk, labels: RegExp[]): Segment[] {
  const groups: VizLine[][] = [];
  for (const part of chunk.parts) {
    const last = groups.at(-1);
    // A part that overlaps the one before is the rest of its word ("26.02.20" "2.2032"; touching, "04.02.2" "2.2029"), whatever it starts with.
    if (last && (runsOn(last.at(-1) as VizLine, part) || !labels.some((l) => l.test(foldText(part.text))))) last.push(part);
    else groups.push([part]);
  }
  return groups.flatMap((parts) => {
    // Hyphens inside numbers kept (foldValue): a hyphenated licence number is one word.
    const folded = foldValue(joinParts(parts));
    const pieces = folded.split(MID_LABEL).filter(Boolean);
    const left = Math.min(...parts.map((p) => p.left));
    return pieces.map((text, i) => ({ ...chunk, left: i === 0 ? left : chunk.left, right: Math.max(...parts.map((p) => p.right)), text, folded: text, parts }));
  });
}

/** Short label words of licence fronts, in English and French, as OCR glues them to each other ("LNNOM", "FNPRENO", "DLNONO"). */
const LABEL_TOKENS = ['LN', 'FN', 'DL', 'DLN', 'NO', 'NOM', 'PRENOM', 'PRENO', 'PRENOMS', 'NAME', 'SURNAME', 'DOB', 'DDN', 'ISS', 'DEL', 'EXP', 'PERMIS', 'NUMERO', 'NUMBER'];

/** Whether a word is made of label words only (two or more, glued): "LNNOM" is LN and NOM. */
function labelTokens(word: string, depth = 0): boolean {
  if (word === '') return depth >= 2;
  return LABEL_TOKENS.some((t) => word.startsWith(t) && labelTokens(word.slice(t.length), depth + 1));
}

/** Label tokens glued in pairs ("FNPRENOM", "LNNOM", "DLNONO"), for the misread test of gluedLabel. */
const GLUED_PAIRS = LABEL_TOKENS.flatMap((a) => LABEL_TOKENS.map((b) => a + b));

/**
 * Name labels long enough that no name starts with them, which OCR glues to the name after them
 * ("2FN/PRENOM ETIENNE" read "2FN PRENOMETIENNE"): the label's, not the name's.
 */
const NAME_LABEL_PREFIX = /^(?:PRENOMS?|SURNAME|NACHNAME|VORNAMEN?|APELLIDOS|NOMBRES?)(?=[A-Z]{3})/;

/**
 * A field's text without a first word that is labels glued together ("LNNOM TREMBLAY" → TREMBLAY), or
 * such a word with one letter misread or lost ("NPRENOM ETIENNE": FN/PRÉNOM with its F lost; six letters
 * or more, one edit from two glued label words), or a long name label glued to the name itself
 * ("PRENOMETIENNE" → ETIENNE): never part of the value.
 */
function gluedLabel(text: string): string {
  const [first = '', ...rest] = text.split(' ');
  if (rest.length > 0 && (labelTokens(first) || (first.length >= 6 && GLUED_PAIRS.some((p) => distance(first, p) <= 1)))) return rest.join(' ');
  const prefix = NAME_LABEL_PREFIX.exec(first);
  return prefix ? [first.slice(prefix[0].length), ...rest].join(' ') : text;
}

/** Labels of a second language that follow the first ("NOM SURNAME" → after NOM, SURNAME is a label too). */
function stripLabels(text: string, labels: RegExp[]): string {
  let rest = text;
  for (let again = true; again; ) {
    again = false;
    for (const label of labels) {
      const after = afterLabel(rest, label);
      // Only words are stripped: a bare number there is the value's own ("12 07 2041"), not a field number.
      if (after !== undefined && after.length < rest.length && /[A-Z]/.test(rest.slice(0, rest.length - after.length))) {
        rest = after;
        again = true;
      }
    }
  }
  return rest;
}

/** An address read whole: the street, and the city, state and postal code of its last line. */
export interface AddressRead {
  street: string;
  city: string;
  state: string;
  zip: string;
  lines: VizLine[];
}

/**
 * The address after its field number or label (`label`, on the raw text: `8.`, `ADDRESS`): the rest of that chunk and
 * up to two chunks under it, split at commas and line ends; the shortest tail that reads as a city line
 * of the declared country (cityLine: postal code in its place, city, state) ends it, the street is what
 * stands before. Undefined when no city line is found.
 */
export function readAddress(lines: VizLine[], label: RegExp, country: string): AddressRead | undefined {
  const all = chunks(lines);
  for (const chunk of all) {
    const m = label.exec(chunk.text) ?? gluedNumber(all, chunk);
    if (!m || m.index !== 0) continue;
    const raw = chunk.text.slice(m[0].length).replace(/^[\s.:,;-]+/, '');
    const parts: Chunk[] = raw === '' ? [] : [chunk];
    const texts = raw === '' ? [] : [raw];
    for (const next of [...rowsUnder(all, chunk), undefined]) {
      const found = texts.length > 0 ? split(texts, country) : undefined;
      if (found) return { ...found, lines: [...chunk.parts, ...parts.flatMap((p) => p.parts)] };
      if (!next) break;
      parts.push(next);
      texts.push(next.text);
    }
  }
  return undefined;
}

/**
 * An address whose label or field number OCR lost ("64CACIAVENUE…" under "5.JONES…", "： 138 OAK AVENUE"):
 * read from the row printed right under the field the layout prints before the address (`before`: field 5
 * on the EU model, the given names on AAMVA cards) and the rows under it, when that row is no other field
 * and not the address's label (read by readAddress). Placed by its position alone: a guess.
 */
export function addressUnder(lines: VizLine[], before: FieldRead | undefined, label: RegExp, country: string): AddressRead | undefined {
  const rows = rowsAfter(lines, before, label);
  return rows.length > 0 ? readAddress(rows, /^[^\p{L}\p{N}]*/u, country) : undefined;
}

/** The row under `before`'s row that is no field and no address label, and the rows under it (addressUnder), as lines. */
export function rowsAfter(lines: VizLine[], before: FieldRead | undefined, label: RegExp): VizLine[] {
  const all = chunks(lines);
  const row = before && all.find((c) => c.parts.some((p) => before.lines.includes(p)));
  const next = row && below(all, row);
  if (!next || labelled(next.text) || label.test(next.text) || /^\s*[1-9]\s*[.,:]/.test(next.text)) return [];
  return [next, ...rowsUnder(all, next)].flatMap((c) => c.parts);
}

/** The rows an address may continue on under its label's chunk: up to three, each right under the one before, until a row that starts another field. */
function rowsUnder(all: Chunk[], chunk: Chunk): Chunk[] {
  const out: Chunk[] = [];
  for (let last = chunk; out.length < 3; ) {
    const next = below(all, last, 2);
    if (!next || labelled(next.text)) break;
    out.push(next);
    last = next;
  }
  return out;
}

/**
 * The lines an address may be printed on, whether or not they read as one: every chunk that starts with
 * the address's label (`label`) or with a field 8 run into a number (a house number, or digits a misread
 * left), and the rows under it that readAddress would take. What a second look at an address reads again.
 */
export function addressLines(lines: VizLine[], label: RegExp): VizLine[] {
  const all = chunks(lines);
  return all.filter((c) => label.exec(c.text)?.index === 0 || /^\s*8(?=\d)/.test(c.text)).flatMap((c) => [c, ...rowsUnder(all, c)].flatMap((r) => r.parts));
}

/**
 * A chunk that starts with a field number other than an address's continuation ("9. AM/B", "15 SEX",
 * "15SEX"): without its period, a number followed by words is a field only when the words are a field's
 * label or categories; "13 ELM STREET" under the label ADDRESS is the street, its house number 13.
 */
const labelled = (text: string): boolean => /^\s*(?:[1-9]|1[0-9]|4 ?[a-dA-D])[.:]\s/.test(text) || FIELD_WITH_LABEL.test(foldText(text));
const FIELD_WITH_LABEL = /^(?:1[0-9]|4 ?[A-D]|9A?) ?(?:(?:SEXE?|HGT|HT|HAUT|TAILLE|WGT|WT|POIDS|EYES?|YEUX|HAIR|CHEVEUX|CLASSE?|CAT|RESTR?|COND|END|DD|DONOR|VETERAN|ISS|DEL|EXP|DLN?|DOB|DDN)(?![A-Z]))|^9 ?(?:AM|[ABCD][1E]?|BE|C1E|D1E)(?: |$)/;

/**
 * Field 8 read glued to the house number ("8123 MAIN STREET"): counted as the field number when the
 * address's next line starts further right by about the number's width (the value column), as the
 * card prints it, or, on one line, when the line above starts in its column with a field number of its
 * own; otherwise the 8 is the house number's.
 */
function gluedNumber(all: Chunk[], chunk: Chunk): RegExpExecArray | null {
  const m = /^\s*8(?=\d)/.exec(chunk.text);
  if (!m) return null;
  const next = below(all, chunk, 2);
  const h = chunk.bottom - chunk.top;
  // The line above starting with its own field number glued to its value ("2MICHAEL JESSICA", "5：JONES706141SG9DH"),
  // in the same column, shows the 8 is a field number too.
  const over = all.filter((c) => c !== chunk && c.bottom <= chunk.top + h / 2 && chunk.top - c.bottom < h && Math.abs(c.left - chunk.left) < 0.3 * h).sort((a, b) => b.bottom - a.bottom)[0];
  const numbered = over !== undefined && /^\s*[1-79][.,:：]?\s*[A-Za-z]/.test(over.text);
  // An address on one line ("8138VICTORIAROAD,EDINBURGH,EH19GP", the EU model's field 8): that column alone shows it.
  if (!next) return numbered ? m : null;
  if (next.left - chunk.left > 2 * h || !/\d/.test(next.text)) return null;
  if (next.left - chunk.left >= 0.4 * h) return m;
  // A photograph's boxes are taller than the type, the value column's offset then under 0.4 of a box: the column of numbers decides.
  return next.left > chunk.left && numbered ? m : null;
}

/** Street and city line from an address's texts (lines, each maybe holding commas). */
function split(texts: string[], country: string): Omit<AddressRead, 'lines'> | undefined {
  const parts = texts.flatMap((t) => t.split(/\s*,\s*/)).map((p) => p.trim()).filter(Boolean);
  for (let k = 1; k < parts.length; k++) {
    const tail = parts.slice(k).join(' ');
    // A state code whose letter OCR read as a digit ("C0 80202"): two characters before the postal code, letters again.
    const lettered = tail.replace(/\b([A-Z0-9]{2})(?=\s+\d{4,5}\b)/g, (code) => code.replace(/0/g, 'O').replace(/1/g, 'I').replace(/5/g, 'S').replace(/8/g, 'B'));
    const place = cityLine(tail, country) ?? cityLine(lettered, country);
    if (!place || !place.city || /\d/.test(place.city)) continue;
    // A house number OCR glued to the street's name ("70AVENUE DES PINS") set apart, unless the name starts
    // with O or I, which may be the number's own 0 or 1 misread ("1OOMAINSTREET": left for the reader to doubt).
    const street = foldText(parts.slice(0, k).join(' ')).replace(/\b(\d{1,5})(?![OI])([A-Z]{3,})/g, '$1 $2');
    if (!/\d/.test(street) || !/[A-Z]{2,}/.test(street)) continue;
    return { street, ...place };
  }
  return undefined;
}
