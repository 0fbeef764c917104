import { foldText } from '../../../domain/rules';
import { type DateOrder, datesIn, ISSUE_LABEL, monthLetters, unambiguousDate } from '../text-search';

/**
 * When a bill, statement or letter was issued, in English, French, German and Spanish: the date after an
 * issue label ("Statement date", "Date de facture", "Rechnungsdatum", "Fecha de emisión"), else the
 * letter's dated line ("Lyon, le 2 octobre 2026", "Berlin, 2. Oktober 2026", "Sevilla, 2 de octubre de
 * 2026", or a date alone on its line). Never a due, payment or period date. Pure functions.
 */

/** Issue labels as folded text, spaces optional (OCR drops them: "FECHADEEMISION"), ó read as 6 or 0 too. */
const LABELS = new RegExp(
  [
    ISSUE_LABEL.source,
    'DATE ?DE ?(?:LA ?)?FACTURE',
    'DATE ?D ?(?:E|É)?MISSION',
    'DATE ?DU ?RELEVE',
    'EMIS(?:E)? ?LE',
    'FACTURE ?DU',
    'RELEVE ?DU',
    'RECHNUNGSDATUM',
    'AUSSTELLUNGSDATUM',
    'KONTOAUSZUG ?VOM',
    'RECHNUNG ?VOM',
    '(?:^|\\s)DATUM',
    'FECHA ?DE ?EMISI[O06]N',
    'FECHA ?DE ?(?:LA ?)?FACTURA',
    'FECHA ?DEL ?EXTRACTO',
    '(?:^|\\s)FECHA(?= ?\\d)',
  ].join('|'),
);

/** Due, payment and period labels: a date after one of them is not the issue date. */
const NOT_ISSUE = /\b(DUE|PAY BY|PAYMENT|PERIOD|ECHEANCE|A PAYER AVANT|PRELEVEMENT|FALLIG|ZAHLBAR|ZEITRAUM|VENCIMIENTO|PERIODO|CARGO)\b/;

const MONTHS: Record<string, number> = {};
[
  ['JANUARY', 'JANVIER', 'JANUAR', 'ENERO'],
  ['FEBRUARY', 'FEVRIER', 'FEBRUAR', 'FEBRERO'],
  ['MARCH', 'MARS', 'MARZ', 'MAERZ', 'MARZO'],
  ['APRIL', 'AVRIL', 'ABRIL'],
  ['MAY', 'MAI', 'MAYO'],
  ['JUNE', 'JUIN', 'JUNI', 'JUNIO'],
  ['JULY', 'JUILLET', 'JULI', 'JULIO'],
  ['AUGUST', 'AOUT', 'AGOSTO'],
  ['SEPTEMBER', 'SEPTEMBRE', 'SEPTIEMBRE', 'SETIEMBRE'],
  ['OCTOBER', 'OCTOBRE', 'OKTOBER', 'OCTUBRE'],
  ['NOVEMBER', 'NOVEMBRE', 'NOVIEMBRE'],
  ['DECEMBER', 'DECEMBRE', 'DEZEMBER', 'DICIEMBRE'],
].forEach((names, i) => names.forEach((n) => (MONTHS[n] = i + 1)));
/** Month names as OCR may read them: O as zero and I as one ("22.0KTOBER"). */
const MONTH_WORD = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .map((m) => m.replace(/O/g, '[O0]').replace(/I/g, '[I1]'))
  .join('|');
const month = (word: string): number => MONTHS[word.replace(/0/g, 'O').replace(/1/g, 'I')] ?? 0;
/** "2 octobre 2026", "2. Oktober 2026", "21 de octubre de 2026", "1er octobre 2026", with or without the spaces OCR drops. */
const WORD_DATE = new RegExp(`(?<![0-9])([0-3]?[0-9]) ?(?:ER)? ?(?:DE ?)?(${MONTH_WORD}) ?(?:DE ?)?((?:19|20)[0-9]{2})(?![0-9])`);
/** "October 2, 2026": the month first, as English writes it too. */
const MONTH_FIRST = new RegExp(`(?<![A-Z])(${MONTH_WORD}) ?([0-3]?[0-9]),? ?((?:19|20)[0-9]{2})(?![0-9])`);

const iso = (y: number, m: number, d: number): string | undefined => {
  if (m < 1 || m > 12 || d < 1 || d > new Date(Date.UTC(y, m, 0)).getUTCDate()) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};

/** The first date in a folded text: a month in words of the four languages, else a numeric one in the country's order. */
export function letterDateIn(text: string, order: DateOrder): { iso: string; unambiguous: boolean } | undefined {
  const folded = foldText(monthLetters(text));
  const w = WORD_DATE.exec(folded);
  const f = MONTH_FIRST.exec(folded);
  const byWord = (w && iso(Number(w[3]), month(w[2] as string), Number(w[1]))) || (f && iso(Number(f[3]), month(f[1] as string), Number(f[2])));
  if (byWord) return { iso: byWord, unambiguous: true };
  const numeric = datesIn([text], order)[0];
  return numeric ? { iso: numeric.iso, unambiguous: unambiguousDate(text) } : undefined;
}

/** A letter's dated line: a place and a comma before the date ("LYON, LE 2 OCTOBRE 2026"), or the date alone. */
const DATED_LINE = new RegExp(`^(?:[A-Z][A-Z -]{1,30} ?,? ?(?:LE ?|DEN ?|AM ?|A ?)?)?(?:[0-3]?[0-9] ?(?:ER)? ?(?:DE ?)?(?:${MONTH_WORD}) ?(?:DE ?)?(?:19|20)[0-9]{2}|(?:${MONTH_WORD}) ?[0-3]?[0-9],? ?(?:19|20)[0-9]{2})$`);

/**
 * The issue date of a proof of address from its lines (top to bottom): after an issue label on its
 * line or alone on the next, else a letter's dated line. `unambiguous`: a month in words, a year first
 * or a day over 12 (a numeric date's order cannot be mistaken).
 */
export function issueDateOf(lines: string[], order: DateOrder): { iso: string; unambiguous: boolean } | undefined {
  for (let i = 0; i < lines.length; i++) {
    const folded = foldText(lines[i] as string);
    const at = folded.search(LABELS);
    if (at < 0 || NOT_ISSUE.test(folded.slice(0, at))) continue;
    const after = letterDateIn(folded.slice(at), order) ?? letterDateIn(lines[i + 1] ?? '', order);
    if (after) return after;
  }
  for (const line of lines) {
    const folded = foldText(monthLetters(line));
    // Before the date, nothing but a place and its comma ("Lyon, le"), or the month's name: never a label ("Due date:").
    const before = line.split(/\d/)[0] ?? '';
    const placed = !/\p{L}/u.test(before) || before.includes(',') || new RegExp(`^(?:${MONTH_WORD})\\s*$`).test(foldText(before));
    if (placed && !NOT_ISSUE.test(folded) && DATED_LINE.test(folded)) return letterDateIn(folded, order);
  }
  return undefined;
}

/** A line with its box (address.ts PlacedLine; a text layer's lines stacked one unit apart). */
interface Boxed {
  text: string;
  top: number;
  bottom: number;
}

/** Document titles, labels and page furniture: a letterhead line with one of them is not the issuer's name. */
const NOT_ISSUER =
  /\b(INVOICE|BILL|STATEMENT|ACCOUNT|PAGE|DATE|TOTAL|CUSTOMER|DEAR|FACTURE|RELEVE|COMPTE|MADAME|MONSIEUR|RECHNUNG|STROMRECHNUNG|KONTOAUSZUG|DATUM|SEHR|FACTURA|EXTRACTO|CUENTA|FECHA|ESTIMADO|TEL|PHONE|FAX|EMAIL|WWW)\b|@|:/;

/**
 * The issuer of a bill, statement or letter: its letterhead's name, the line in the largest type among
 * the page's first lines (the top fifth of the text, at least its first six lines), never a title, a
 * label, an address or telephone line; of equal sizes the higher. A text layer stacks its lines one
 * unit high: its first such line. Folded (foldText); undefined when no line qualifies.
 */
export function issuerOf(lines: Boxed[]): string | undefined {
  if (lines.length === 0) return undefined;
  const sorted = [...lines].sort((a, b) => a.top - b.top);
  const top = (sorted[0] as Boxed).top;
  const span = Math.max(...sorted.map((l) => l.bottom)) - top;
  const head = sorted.filter((l, i) => i < 6 || l.top - top <= span / 5);
  const candidates = head.filter((l) => {
    const folded = foldText(l.text);
    return folded.replace(/[^A-Z]/g, '').length >= 3 && (folded.match(/\d/g)?.length ?? 0) < 3 && !NOT_ISSUER.test(l.text.toUpperCase()) && !NOT_ISSUER.test(folded);
  });
  const height = (l: Boxed) => l.bottom - l.top;
  // Of lines within a tenth of the largest type, the highest on the page.
  const tallest = Math.max(0, ...candidates.map(height));
  const name = candidates.find((l) => height(l) >= 0.9 * tallest);
  return name ? foldText(name.text) : undefined;
}
