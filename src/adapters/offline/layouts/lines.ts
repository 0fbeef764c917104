import { foldText } from '../../../domain/rules';
import { type DateOrder, dateOrderOf } from '../text-search';
import { type VizLine, vizDates } from '../viz';

/**
 * What the layout readers share: the OCR's placed lines joined into the chunks a field is printed in,
 * the line under a label, and how each kind of value (name, date, number) is taken from a text.
 * Pure functions over placed lines (viz.ts VizLine: text, recogniser mean, box in page pixels).
 */

/** A printed field as a layout reader found it: the value, and the placed lines it was read from (to read them again). */
export interface FieldRead {
  /** Dotted extracted_data path (`person.surname`). */
  field: string;
  value: string;
  /** The OCR lines the value (and its label) came from. */
  lines: VizLine[];
  /** Placed by its position alone (its label not read): never trusted. */
  guess?: true;
}

/** Placed lines joined into one printed field: the joined text and box, and the lines it was made of. */
export interface Chunk extends VizLine {
  parts: VizLine[];
}

const mid = (l: VizLine) => (l.top + l.bottom) / 2;
const height = (l: VizLine) => Math.max(1, l.bottom - l.top);

/**
 * The page's lines joined where the detector cut one printed field in two: boxes on the same row (their
 * middles within half a line height) less than `gap` line heights apart, left to right, so that a field
 * number or a label and its value ("4a." "24.06.2020") make one chunk, while fields side by side on
 * a row ("4a. 24.06.2020" … "4c. DVLA") stay apart. Chunks come top to bottom, then left to right.
 */
export function chunks(lines: VizLine[], gap = 1.6): Chunk[] {
  const sorted = [...lines].filter((l) => l.text.trim() !== '').sort((a, b) => a.left - b.left);
  const out: Chunk[] = [];
  for (const line of sorted) {
    const h = height(line);
    const row = (c: Chunk) => Math.abs(mid(c) - mid(line)) < Math.min(height(c), h) / 2;
    // Beside the chunk, or (a word the detector cut into two overlapping boxes) running on from inside it.
    const joined = out.find((c) => row(c) && ((line.left >= c.right - h * 0.5 && line.left - c.right < gap * Math.max(h, height(c))) || overlaps(c.parts.at(-1) as VizLine, line)));
    if (joined) {
      joined.text = joinParts([...joined.parts, line]);
      joined.mean = Math.min(joined.mean, line.mean);
      joined.parts.push(line);
      joined.right = Math.max(joined.right, line.right);
      joined.top = Math.min(joined.top, line.top);
      joined.bottom = Math.max(joined.bottom, line.bottom);
    } else out.push({ ...line, parts: [line] });
  }
  return out.sort((a, b) => (Math.abs(mid(a) - mid(b)) < Math.min(height(a), height(b)) / 2 ? a.left - b.left : a.top - b.top));
}

/**
 * Whether `b` starts well inside `a` on its row and runs on past it: one word the detector cut into two
 * overlapping boxes ("26.02.20" "2.2032"), each read with the characters they share.
 */
export function overlaps(a: VizLine, b: VizLine): boolean {
  const h = Math.min(height(a), height(b));
  return b.left > a.left + h && b.left <= a.right - 0.3 * h && b.right > a.right + h;
}

/**
 * The texts of a chunk's parts, left to right: apart by a space, or, for overlapping boxes, with the
 * characters both read (two or more: the end of one that starts the next) written once: "26.02.2032".
 */
export function joinParts(parts: VizLine[]): string {
  let text = parts[0]?.text ?? '';
  for (let i = 1; i < parts.length; i++) {
    const [a, b] = [parts[i - 1] as VizLine, parts[i] as VizLine];
    // Boxes that only touch ("04.02.2" "2.2029", a pixel or two in common) share characters too when three
    // or more of them agree: words apart stand a space apart.
    const least = overlaps(a, b) ? 2 : touches(a, b) ? 3 : Number.POSITIVE_INFINITY;
    let k = Number.isFinite(least) ? Math.min(text.length, b.text.length, 8) : 0;
    while (k >= least && !text.endsWith(b.text.slice(0, k))) k--;
    text = k >= least ? text + b.text.slice(k) : `${text} ${b.text}`;
  }
  return text;
}

/** Whether `b` starts inside `a`'s box (however little) and runs on past it, starting well after `a` starts. */
function touches(a: VizLine, b: VizLine): boolean {
  const h = Math.min(height(a), height(b));
  return b.left > a.left + h && b.left <= a.right && b.right > a.right + h;
}

/** Whether `b` is the rest of `a`'s word: overlapping boxes (overlaps), or touching ones whose texts share three characters or more. */
export function runsOn(a: VizLine, b: VizLine): boolean {
  return overlaps(a, b) || (touches(a, b) && joinParts([a, b]).length < a.text.length + b.text.length + 1);
}

/**
 * The line printed under `line`: the nearest whose middle lies below it within `reach` of its heights,
 * starting near its left edge or overlapping it sideways.
 */
export function below<T extends VizLine>(lines: T[], line: VizLine, reach = 2.5): T | undefined {
  const h = height(line);
  return lines
    .filter((o) => o !== line && mid(o) > mid(line) + h * 0.5 && o.top < line.bottom + reach * h)
    .filter((o) => Math.abs(o.left - line.left) < 2 * h || (o.left < line.right && o.right > line.left))
    .sort((a, b) => a.top - b.top || Math.abs(a.left - line.left) - Math.abs(b.left - line.left))[0];
}

/**
 * Words that are labels, headings or card furniture, never a holder's name: among them the other
 * fields' labels (dates, the document number, the name labels themselves, in the layouts' languages),
 * which a layout reader takes for a name when the name under its label was not read.
 */
const NOT_NAME =
  /\b(DRIVER|DRIVING|LICEN[CS]E|PERMIS|CONDUIRE|FUHRERSCHEIN|PERMISO|PATENTE|RIJBEWIJS|CLASS|RESTR?|END|SEX|HGT|WGT|EYES|HAIR|DONOR|VETERAN|DOB|EXP|ISS|DD|USA|SAMPLE CARD|IDENTITY|CARD|CARTE|REPUBLIQUE|NATIONALITY|NATIONALITE|SIGNATURE|UNITED KINGDOM|NONE|DATE|DATUM|FECHA|DATA|EXPIRY|EXPIR(?:ATION)?|BIRTH|NAISS(?:ANCE)?|GEBURTSDATUM|NACIMIENTO|NASCITA|GEBOORTEDATUM|DOCUMENT|DOCUMENTO|SURNAME|SUMAME|GIVEN NAMES?|PRENOMS?|NOM|VORNAMEN?|NACHNAME|APELLIDOS?)\b/;

/** A holder's name as printed: Latin letters, spaces, hyphens and apostrophes, two letters or more, no label word; folded. */
export function nameValue(raw: string): string | undefined {
  const text = raw.replace(/,/g, ' ').trim();
  if (!/^[\p{Script=Latin}\s'’.-]+$/u.test(text) || text.replace(/[^\p{L}]/gu, '').length < 2) return undefined;
  const folded = foldText(text);
  return NOT_NAME.test(folded) ? undefined : folded;
}

/** A document number: five or more letters and digits with a digit among them; spaces inside dropped. */
export function numberValue(raw: string): string | undefined {
  const folded = foldText(raw).replace(/ /g, '');
  return /^[A-Z0-9]{5,}$/.test(folded) && /\d/.test(folded) ? folded : undefined;
}

/** A hyphen (or a dash OCR read for it) between groups of a number: kept by foldValue ("W8651-42168-86729", "2031-05-01"). */
const NUMBER_HYPHEN = /(?<=[\p{L}\p{N}]) ?[-‐‑–—] ?(?=\p{N})|(?<=\p{N}) ?[-‐‑–—] ?(?=[\p{L}\p{N}])/u;

/**
 * Folded text (foldText) that keeps the hyphens inside numbers: an Ontario or Quebec licence number
 * printed in hyphenated groups is one value, not its first group followed by other words.
 */
export function foldValue(raw: string): string {
  return raw.split(NUMBER_HYPHEN).map(foldText).join('-');
}

/**
 * The document number of a field's text: the whole text when every word of it holds a digit or is a
 * lone letter (groups whose hyphens OCR read as spaces, "W8651 42168 86729"; "D 123 4567"), else its
 * first word (hyphenated groups are one word, foldValue); never a word of letters glued to it
 * ("NUMERO C0454…").
 */
export function numberText(text: string): string | undefined {
  const words = text.split(' ').filter(Boolean);
  const whole = words.every((w) => /\d/.test(w) || /^[A-Z]$/.test(w)) ? numberValue(text) : undefined;
  return whole ?? numberValue(words[0] ?? '');
}

/**
 * The first date printed in a text, as YYYY-MM-DD, in the issuing country's day/month order (a part
 * over 12 decides); a two-digit year in `century`. Undefined when none, or when day and month could
 * be swapped and the country's order is not known to settle it.
 */
export function dateValue(raw: string, country: string, century = 19): string | undefined {
  const order: DateOrder = dateOrderOf(country);
  // A stray character before the date ("EXP:0 08/04/2023") may pair with its digits: each word dropped in turn.
  // Spaces OCR dropped inside a numeric date ("05022034", "1502 2035", "15 022035"): the two-digit parts before a year split apart.
  // A year first with the month in letters ("1990-JAN-15", as British Columbia prints it): put day first for vizDates.
  const words = foldText(raw)
    .replace(/\b(\d{2}) ?(\d{2}) ?((?:19|20)\d{2})\b/g, '$1 $2 $3')
    .replace(/\b((?:19|20)\d{2}) ?([A-Z]{3,4}) ?([0-3]?\d)\b/g, '$3 $2 $1')
    .split(' ');
  // A date with its four-digit year first: a character the detector read twice where two boxes overlap ("4b.2" "26.02.2032")
  // pairs with the day and month into a two-digit year (02/26/2002) otherwise.
  const full = FULL_YEAR_DATE.exec(words.join(' '));
  const whole = full && vizDates(full[0], century, order)[0]?.isos[0];
  if (whole) return whole;
  for (let i = 0; i < Math.min(words.length, 3); i++) {
    const found = vizDates(words.slice(i).join(' '), century, order)[0]?.isos[0];
    if (found) return found;
  }
  return undefined;
}

/** A numeric date with a four-digit year, day/month first or year first, or with its month in letters (folded text). */
const FULL_YEAR_DATE = /(?<!\d)(?:\d{1,2} \d{1,2} (?:19|20)\d{2}|(?:19|20)\d{2} \d{1,2} \d{1,2}|\d{1,2} ?[A-Z]{3,4} ?(?:19|20)\d{2})(?!\d)/;

/** What follows a label at the start of a chunk's text (the label's own punctuation dropped). */
export function afterLabel(text: string, label: RegExp): string | undefined {
  const m = label.exec(text);
  if (!m || m.index !== 0) return undefined;
  return text.slice(m[0].length).replace(/^[\s.:,;#-]+/, '').trim();
}
