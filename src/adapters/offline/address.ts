import { countryByIso3 } from '../../domain/countries';
import type { ExpectedData } from '../../domain/entities';
import type { ExtractedData } from '../../domain/rules';
import { issuerOf } from './layouts/letter';
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
  /\b(ACCOUNT|STATEMENT|CUSTOMER|SUPPORT|SERVICES?|DEPARTMENT|INVOICE|BILL|BILLING|DATE|TOTAL|AMOUNT|PAGE|BANK|BALANCE|PAYMENT|DUE|LTD|LLC|INC|GMBH|PLC|ENERGY|POWER|WATER|GAS|ELECTRICITY|ELECTRIC|TELECOM|PERIOD|NUMBER|REFERENCE|TEL|PHONE|EMAIL|WWW|COM|SUMMARY|DESCRIPTION|QTY|PRICE|TAX|VAT|FACTURE|RELEVE|COMPTE|CLIENT|BANQUE|ASSURANCES?|MUTUELLE|RECHNUNG|STROMRECHNUNG|KONTOAUSZUG|KUNDENSERVICE|SPARKASSE|VOLKSBANK|STADTWERKE|VERSICHERUNG|FACTURA|EXTRACTO|CUENTA|BANCO|CAJA|SEGUROS|AYUNTAMIENTO|ATENCION)\b/;

/** Two to four words of letters only, none a letterhead word: "ANNA SMITH", not "CUSTOMER SUPPORT DEPARTMENT". */
export function looksLikeName(line: string): boolean {
  const words = line.split(' ').filter(Boolean);
  return words.length >= 2 && words.length <= 4 && words.every((w) => /^\p{L}+$/u.test(w)) && !NOT_A_NAME.test(line);
}

/** A line with a numeric date (`11 02 2019`, `7/18/2008` once folded) or a date label: its year is no postal code. */
const DATE_LIKE = /\b\d{1,2} \d{1,2} (?:19|20)\d{2}\b|\b(?:19|20)\d{2} \d{1,2} \d{1,2}\b|\bDATE\b|\bPERIOD\b/;

/** A line of text and its box on the page: an OCR box in pixels, or a text-layer line stacked one unit under the one before. */
export interface PlacedLine {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Where a row passes from an address to the next column: a label of the invoice's details, an amount, a telephone number. */
const NEXT_COLUMN = /(?:^|\s)(?=(?:INVOICE|DUE|DATE|TOTAL|BALANCE|AMOUNT|ACCOUNT NUMBER|ORDER NUMBER|STATEMENT|PERIOD|REFERENCE|PHONE|TEL|FAX|E-?MAIL|PAGE)\b|[$€£]|\(?\d{3}\)?[-. ]\d{3}[-. ]\d{4}\b|1-8\d\d-)/i;

/**
 * Lines without positions (a PDF's text layer, one row a line) placed one under the other. A text layer
 * joins the columns of a row ("Jane Smith, Due Date: Sep 30, 2019"): what follows a label of the
 * invoice's details, an amount or a telephone number is placed in a second column, and so are rows
 * that start with one, so that the address lines of the first column stay one under the other.
 */
export const stacked = (lines: string[]): PlacedLine[] =>
  lines.flatMap((text, top) => {
    const at = text.search(NEXT_COLUMN);
    const columns = at < 0 ? [text] : [text.slice(0, at), text.slice(at)];
    return columns.map((part, column) => ({ text: part.trim(), left: column * 100, right: column * 100 + 1, top, bottom: top + 1 })).filter((l) => l.text !== '');
  });

/**
 * The rows of the page: lines whose middles lie within half the mean line height of each other, joined
 * left to right, as PaddleOCR's own `detect` joins them (the search for expected values reads rows).
 */
export function rows(lines: PlacedLine[]): string[] {
  if (lines.length === 0) return [];
  const half = lines.reduce((sum, l) => sum + l.bottom - l.top, 0) / lines.length / 2;
  const middle = (l: PlacedLine) => (l.top + l.bottom) / 2;
  const groups: PlacedLine[][] = [];
  for (const line of lines) {
    const group = groups.find((g) => Math.abs(middle(g[0] as PlacedLine) - middle(line)) < half);
    if (group) group.push(line);
    else groups.push([line]);
  }
  return groups
    .map((g) => g.sort((a, b) => a.left - b.left))
    .sort((a, b) => (a[0] as PlacedLine).top - (b[0] as PlacedLine).top)
    .map((g) => g.map((l) => l.text).join(' '));
}

/**
 * How a country prints the last line of an address: the postal code's shape (in folded text), whether
 * the city stands before it (US, UK, Canada, Australia) or after it (most of Europe), and the state or
 * province abbreviations printed before it.
 */
interface PostalFormat {
  code: string;
  city: 'before' | 'after' | 'either';
  states?: string;
  stateRequired?: boolean;
  /** The code as printed in full from its folded form (SW1A2AA → SW1A 2AA, 62704 1234 → 62704-1234). */
  print?: (zip: string) => string;
}

/** A code whose last `n` characters are printed after a space (SW1A 2AA, M5V 3L9, D02 X285), whether OCR kept the space or not. */
const spaced = (n: number) => (zip: string) => `${zip.replace(/ /g, '').slice(0, -n)} ${zip.replace(/ /g, '').slice(-n)}`;

const US_STATES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR|GU|VI|AS|MP';
const FIVE_DIGITS_FIRST: PostalFormat = { code: '\\d{5}', city: 'after' };
const FOUR_DIGITS_FIRST: PostalFormat = { code: '\\d{4}', city: 'after' };
const THREE_TWO_FIRST: PostalFormat = { code: '\\d{3} ?\\d{2}', city: 'after' };
const POSTAL_FORMATS: Record<string, PostalFormat> = {
  USA: { code: '\\d{5}(?: \\d{4})?', city: 'before', states: US_STATES, print: (zip) => zip.replace(' ', '-') },
  CAN: { code: '[A-Z]\\d[A-Z] ?\\d[A-Z]\\d', city: 'before', states: 'AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT', print: spaced(3) },
  AUS: { code: '\\d{4}', city: 'before', states: 'NSW|VIC|QLD|SA|WA|TAS|NT|ACT', stateRequired: true },
  GBR: { code: '[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}', city: 'before', print: spaced(3) },
  IRL: { code: '[AC-FHKNPRTV-Y]\\d[\\dW] ?[\\dAC-FHKNPRTV-Y]{4}', city: 'before', print: spaced(4) },
  NLD: { code: '\\d{4} ?[A-Z]{2}', city: 'after' },
  PRT: { code: '\\d{4} \\d{3}', city: 'after' },
  POL: { code: '\\d{2} \\d{3}', city: 'after' },
  ...Object.fromEntries(['DEU', 'FRA', 'ESP', 'ITA', 'FIN', 'EST', 'HRV', 'LTU', 'MCO', 'SMR', 'VAT'].map((c) => [c, FIVE_DIGITS_FIRST])),
  ...Object.fromEntries(['AUT', 'BEL', 'CHE', 'DNK', 'NOR', 'LUX', 'HUN', 'SVN', 'BGR', 'LIE', 'CYP', 'ZAF'].map((c) => [c, FOUR_DIGITS_FIRST])),
  ...Object.fromEntries(['SWE', 'CZE', 'SVK', 'GRC'].map((c) => [c, THREE_TWO_FIRST])),
};
/** Countries whose format is not listed: a code of four to six digits, on either side of the city. */
const ANY_FORMAT: PostalFormat = { code: '\\d{4,6}', city: 'either' };

/** Words of a label, a total or a table: a line with one is no city. */
const NOT_A_PLACE = /\b(ACCOUNT|NUMBER|NO|INVOICE|DATE|TOTAL|AMOUNT|BALANCE|DUE|PAGE|TEL|PHONE|FAX|REF|REFERENCE|ORDER|PERIOD|ID)\b/;

/** Street types and address words, also glued to the street name by OCR ("PINEVIEWDRIVE", "HAUPTSTRASSE"). */
const STREET_WORD =
  /\b(ST|STREET|RD|ROAD|AVE|AV|AVENUE|BLVD|BOULEVARD|DR|DRIVE|LN|LANE|WAY|CT|COURT|PL|PLACE|SQ|SQUARE|PKWY|PARKWAY|HWY|HIGHWAY|TER|TERRACE|CRES|CRESCENT|CLOSE|GROVE|ROW|WALK|CIR|CIRCLE|TRAIL|STR|WEG|PLATZ|ALLEE|GASSE|RING|STRAAT|LAAN|GRACHT|PLEIN|RUE|AVENIDA|CALLE|PLAZA|CARRER|VIA|VIALE|PIAZZA|CORSO|RUA|VEJ|GADE|GATAN|ULICA|UL|SUITE|APT|UNIT|FLAT|FLOOR)\b|\B(STREET|DRIVE|AVENUE|ROAD|LANE|STRASSE|STRAAT|WEG|GASSE|PLATZ|LAAN|GATAN|VEJ)\b/;
const PO_BOX = /\b(P ?O ?BOX|BOX|POSTFACH|BOITE POSTALE|APARTADO|CASELLA POSTALE|POSTBUS)\b/;

/** Money (`$4,647.68`, `15.00`), telephone numbers and dates, read on the raw line (folding drops their punctuation). */
const AMOUNT = /[$€£¥]|\d[.,]\d{2}\b/;
const PHONE = /\d{3}\)? ?[-. ]\d{3}[-. ]\d{4}\b|\b1[- ]8\d\d[- ]|\b(TEL|TTY|FAX|PHONE)\b/i;
const MONTH_DATE = /\b(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|SEPT|OCT|NOV|DEC)[A-Z]* ?\d{1,2},? ?(19|20)\d{2}\b|\b\d{1,2} ?(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]* ?(19|20)\d{2}\b/;
const notAddress = (raw: string, folded: string): boolean => AMOUNT.test(raw) || PHONE.test(raw) || DATE_LIKE.test(folded) || MONTH_DATE.test(folded);

/**
 * Folded text with the gaps OCR drops put back between a word and a number glued to it: a state and
 * its ZIP ("NY12210"), a house number and its street ("3787PINEVIEWDRIVE"). Codes that mix letters
 * and digits (SW1A 2AA, M5V 3L9) are left alone: only runs of two or more letters are split off.
 */
function unglue(text: string): string {
  return normalizeText(text)
    .replace(/\b([A-Z]{2,})(\d{4,5})\b/g, '$1 $2')
    .replace(/\b(\d{1,5})([A-Z]{3,})/g, '$1 $2');
}

/** A street name glued to its house number after it, as OCR reads small print ("CALLEMAYOR48"): the number set apart. */
const streetText = (text: string): string => text.replace(/\b([A-Z]{3,})(\d{1,4}[A-Z]?)\b/g, '$1 $2');

/** A street line: a house number and a word of letters, or a post-office box; never a date, an amount or a telephone number. */
function isStreet(raw: string, folded: string): boolean {
  const text = streetText(folded);
  if (notAddress(raw, text) || NOT_A_PLACE.test(text)) return false;
  if (PO_BOX.test(text) && /\d/.test(text)) return true;
  return /\b\d{1,5}[A-Z]?\b/.test(text) && /\b[A-Z]{3,}\b/.test(text.replace(/\b\d+[A-Z]?\b/g, ''));
}

/** Country names and codes printed after or as part of an address's last line ("ANYTOWN, USA 12345"). */
function countryWords(country: string): string {
  const c = countryByIso3(country);
  return ['USA', 'US', 'UK', 'UNITED STATES', 'UNITED KINGDOM', 'AUSTRALIA', 'CANADA', ...(c ? [c.iso3, c.iso2, normalizeText(c.name)] : [])].join('|');
}

/**
 * The city line of an address block split into city, state and postal code, by the declared
 * country's format: `AUSTIN TX 78701` → AUSTIN / TX / 78701, `10115 BERLIN` → BERLIN / '' / 10115. The
 * postal code counts only as a whole word at its place on the line (never a house number, a year, an
 * amount): undefined when the line is no city line. A UK or Irish code alone on its line has no city.
 */
export function cityLine(line: string, country = ''): { city: string; state: string; zip: string } | undefined {
  const format = POSTAL_FORMATS[country] ?? ANY_FORMAT;
  const text = letteredState(unglue(line), format);
  const nation = `(?: (?:${countryWords(country)}))?`;
  const state = format.states ? `(?: (?<state>${format.states}))${format.stateRequired ? '' : '?'}` : '';
  const place = '(?<city>[A-Z][A-Z ]*?)';
  const shapes: { pattern: string; cityAfter: boolean }[] = [];
  // OCR glues a code that starts with letters to the city ("LONDONSW1A2AA"): no space is required before
  // it, and the code alone on its line is tried first (lazy `??`), so that "SW1A 2AA" is no city "S".
  const gap = format.code.startsWith('\\d') ? ' ' : ' ?';
  if (format.city !== 'after') shapes.push({ pattern: `^(?:${place}${nation}${state}${gap})??(?<zip>${format.code})${nation}$`, cityAfter: false });
  if (format.city !== 'before') shapes.push({ pattern: `^(?:[A-Z]{1,2} )?(?<zip>${format.code}) ${place}${nation}$`, cityAfter: true });
  for (const { pattern, cityAfter } of shapes) {
    const m = gluedCode(new RegExp(pattern).exec(text), pattern, text, country);
    const zip = m?.groups?.zip;
    const city = m?.groups?.city?.trim() ?? '';
    // A number alone is no city line (a UK, Irish or Canadian code is); a "city" with a street word
    // after a number is a street line ("1600 AMPHITHEATRE PKWY").
    if (!zip || (!city && /^\d/.test(zip)) || NOT_A_PLACE.test(city) || city.split(' ').length > 4) continue;
    if (cityAfter && STREET_WORD.test(city)) continue;
    return { city, state: m.groups?.state ?? '', zip: format.print?.(zip) ?? zip };
  }
  return undefined;
}

/**
 * A state code OCR read with a digit for a letter, glued to the ZIP code or not ("DENVER, C080202",
 * "C0 80202"): lettered again (0 → O, 1 → I, 5 → S, 8 → B) when that gives one of the country's codes.
 */
function letteredState(text: string, format: PostalFormat): string {
  if (!format.states) return text;
  const states = new RegExp(`^(?:${format.states})$`);
  return text.replace(/\b([A-Z0-9]{2}) ?(\d{5}(?: \d{4})?)$/, (all, code: string, zip: string) => {
    const lettered = code.replace(/0/g, 'O').replace(/1/g, 'I').replace(/5/g, 'S').replace(/8/g, 'B');
    return /\d/.test(code) && states.test(lettered) ? `${lettered} ${zip}` : all;
  });
}

/**
 * UK postcode areas and their post towns, where the town is the area's name: a city glued to its
 * postcode ("MANCHESTERM1 1AE") splits two ways (MANCHESTE / RM1 1AE, MANCHESTER / M1 1AE), and the
 * split whose town is its area's is the one printed.
 */
const UK_AREA_TOWNS: Record<string, string> = {
  AB: 'ABERDEEN', B: 'BIRMINGHAM', BA: 'BATH', BD: 'BRADFORD', BN: 'BRIGHTON', BS: 'BRISTOL', BT: 'BELFAST', CB: 'CAMBRIDGE', CF: 'CARDIFF',
  CH: 'CHESTER', CV: 'COVENTRY', DD: 'DUNDEE', DE: 'DERBY', EH: 'EDINBURGH', EX: 'EXETER', G: 'GLASGOW', GL: 'GLOUCESTER', HU: 'HULL',
  IP: 'IPSWICH', IV: 'INVERNESS', L: 'LIVERPOOL', LE: 'LEICESTER', LN: 'LINCOLN', LS: 'LEEDS', M: 'MANCHESTER', NE: 'NEWCASTLE',
  NG: 'NOTTINGHAM', NN: 'NORTHAMPTON', NR: 'NORWICH', OX: 'OXFORD', PE: 'PETERBOROUGH', PL: 'PLYMOUTH', PO: 'PORTSMOUTH', RG: 'READING',
  S: 'SHEFFIELD', SA: 'SWANSEA', SO: 'SOUTHAMPTON', SR: 'SUNDERLAND', ST: 'STOKE', YO: 'YORK',
  E: 'LONDON', EC: 'LONDON', N: 'LONDON', NW: 'LONDON', SE: 'LONDON', SW: 'LONDON', W: 'LONDON', WC: 'LONDON',
};

/**
 * A UK city line whose code OCR glued to the city: the first (shortest-city) match, unless the longer
 * city leaves a code whose area's post town it is (MANCHESTER / M1 1AE over MANCHESTE / RM1 1AE).
 */
function gluedCode(m: RegExpExecArray | null, pattern: string, text: string, country: string): RegExpExecArray | null {
  const city = m?.groups?.city;
  if (country !== 'GBR' || !m || !city || !text.includes(`${city.trim()}${m.groups?.zip ?? ''}`)) return m;
  const greedy = new RegExp(pattern.replace('[A-Z ]*?', '[A-Z ]*').replace(')??', ')?')).exec(text);
  const area = (zip: string) => /^[A-Z]+/.exec(zip)?.[0] ?? '';
  const town = (g: RegExpExecArray | null) => g?.groups?.zip !== undefined && UK_AREA_TOWNS[area(g.groups.zip)] === g.groups.city?.trim();
  return greedy && !town(m) && town(greedy) ? greedy : m;
}

/** Labels above (or before) the holder's block: bill to, customer, account holder, the addressee of a letter. */
const RECIPIENT = /\b(BILL(ED)? TO|INVOICE TO|SOLD TO|TO|CUSTOMER|CLIENT|ACCOUNT HOLDER|ACCOUNT NAME|NAME|RECIPIENT|ADDRESSEE|MAILING ADDRESS|BILLING ADDRESS|RESIDENT|EMPLOYEE|PAY TO THE ORDER OF|ORDER OF)\b/;
/** Labels of the delivery or supply address: the holder's too, but second to the billing one. */
const DELIVERY = /\b(SHIP(PED)? TO|DELIVER(ED|Y)? TO|DELIVERY ADDRESS|SERVICE ADDRESS|SUPPLY ADDRESS|PROPERTY ADDRESS|PREMISES)\b/;
/** Labels of the sender's own address: where to pay or write to, the letterhead. */
const SENDER = /\b(FROM|REMIT(TANCE)?( TO)?|PAYABLE TO|SEND PAYMENTS?( TO)?|MAIL PAYMENTS?( TO)?|WRITE( TO)?|RETURN ADDRESS|SENDER|REGISTERED OFFICE|HEAD OFFICE)\b/;
/**
 * Company words: as words in a line of words ("ACME CORP", but not the surname BRIDGEWATER), and at the
 * end of one OCR word whose spaces were dropped ("ANYCOMPANYCORP").
 */
const COMPANY_WORDS = 'INC|LLC|LTD|CORP|CORPORATION|COMPANY|GMBH|PLC|BANK|ENERGY|POWER|UTILITIES|SERVICES|GROUP|HOLDINGS|INSURANCE|TELECOM|WATER|ELECTRIC';
const COMPANY_WORD = new RegExp(`\\b(?:${COMPANY_WORDS}|CO|SA|AG|BV|NV|SARL|SRL|SPA)\\b`);
const COMPANY = new RegExp(`(?:${COMPANY_WORDS})\\b|${COMPANY_WORD.source}`);
/** A form of address (or the "and" of two) before the rest of a name. */
const TITLE_WORDS = 'MR|MRS|MS|MISS|MX|DR|PROF|HERR|HERRN|FRAU|FAMILIE|M|MONSIEUR|MADAME|MME|MLLE|SR|SRA|D|DNA|DON|DONA|SIG|SIGRA|DHR|MEVR|AND|UND|ET|Y|E';
const TITLE = new RegExp(`^(?:${TITLE_WORDS}) (.+ .+)$`);
/** A title before one long word: a name whose spaces OCR dropped. */
const GLUED_AFTER_TITLE = new RegExp(`^(?:${TITLE_WORDS}) (\\p{L}{8,})$`, 'u');


/**
 * A mixed-case word OCR glued from several ("FrauJuliaWeber"): split where a capital follows a small
 * letter, when that happens twice or more in a long word (so "McDonald" stays whole).
 */
const camelWords = (raw: string): string =>
  raw.replace(/\p{L}{10,}/gu, (word) => ((word.match(/\p{Ll}\p{Lu}/gu)?.length ?? 0) >= 2 ? word.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2') : word));

/** The part of a line after a recipient label that stands first: "BILL TO: JANE SMITH" → JANE SMITH. */
const afterLabel = (raw: string): string => {
  const text = normalizeText(raw);
  const m = RECIPIENT.exec(text);
  return m?.index === 0 ? text.slice(m[0].length).trim() : text;
};

/**
 * A person's name as printed on a line of the block, titles stripped; undefined when the line is no
 * name. OCR drops the spaces of small print ("JOHNSTILES"): when `glued` is allowed (the line right
 * above the street), one long word of letters without company words counts too, as a weaker sign.
 */
function personName(raw: string, glued: boolean): { text: string; glued: boolean } | undefined {
  // Titles are stripped while two words remain: "MR M SMITH" is M SMITH (an initial and a surname).
  let text = afterLabel(camelWords(raw));
  for (let m = TITLE.exec(text); m; m = TITLE.exec(text)) text = m[1] as string;
  // A title before one long word: the name's spaces dropped by OCR ("FRAU ANNIKABECKER").
  const glue = glued ? GLUED_AFTER_TITLE.exec(text) : null;
  if (glue) text = glue[1] as string;
  // A label ("SHIP TO", "FROM") is no name, whatever its words.
  if ([RECIPIENT, DELIVERY, SENDER].some((label) => label.test(text))) return undefined;
  if (looksLikeName(text) && !COMPANY_WORD.test(text)) return { text, glued: false };
  if (glued && /^\p{L}{8,}$/u.test(text) && !COMPANY.test(text) && !NOT_A_NAME.test(text)) return { text, glued: true };
  return undefined;
}

export interface AddressBlock {
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  /** Higher for the holder's block: a recipient label and a person's name; lower for a sender's label or a letterhead. */
  score: number;
}

/**
 * The address blocks of a page that may be the holder's, likeliest first. A block is a city line whose postal code
 * fits the declared country, the street line right above it in the same column (with a house number or
 * a post-office box), then up to three lines above: the holder's name(s), an address line, a label.
 * The recipient's block (under "bill to", "customer", with a person's name) outranks the sender's
 * (under "from" or "remit to", a company letterhead, the page's first line); blocks with a sender's
 * sign and nothing of the holder's are left out.
 */
export function addressBlocks(lines: PlacedLine[], country: string): AddressBlock[] {
  const folded = lines.map((l) => unglue(l.text));
  const firstLine = lines.reduce<PlacedLine | undefined>((a, l) => (!a || l.top < a.top ? l : a), undefined);
  const height = (l: PlacedLine) => l.bottom - l.top;
  // The line right above line i in its column: left edges (or right edges, or middles) aligned, less than a line apart.
  const above = (i: number, gap = 1): number | undefined => {
    const line = lines[i] as PlacedLine;
    const h = height(line);
    let best: number | undefined;
    lines.forEach((l, j) => {
      if (j === i || l.bottom > line.top + h / 2 || line.top - l.bottom > gap * h) return;
      const aligned = Math.min(Math.abs(l.left - line.left), Math.abs(l.right - line.right), Math.abs(l.left + l.right - line.left - line.right) / 2) <= 1.5 * h;
      if (aligned && (best === undefined || l.bottom > (lines[best] as PlacedLine).bottom)) best = j;
    });
    return best;
  };
  const blocks: (AddressBlock & { at: PlacedLine; letterhead: boolean })[] = [];
  lines.forEach((line, p) => {
    const place = notAddress(line.text, folded[p] as string) ? undefined : cityLine(line.text, country);
    if (!place) return;
    let s = above(p);
    let city = place.city;
    // Where no state is printed, up to two lines of letters may stand between the street and the postal
    // code (a locality, then the post town above a lone UK postcode: the city is the one nearest the code).
    for (let k = 0; k < (POSTAL_FORMATS[country]?.states ? 0 : 2) && s !== undefined && /^[A-Z ]+$/.test(folded[s] as string) && !NOT_A_PLACE.test(folded[s] as string); k++) {
      city ||= folded[s] as string;
      s = above(s);
    }
    if (s === undefined || !isStreet((lines[s] as PlacedLine).text, folded[s] as string)) return;
    let score = 0;
    let name: { text: string; glued: boolean } | undefined;
    let top = s;
    // Up the column: an address line, the holder's name(s) (the first printed is taken), a label.
    for (let k = 0, j = above(s); k < 3 && j !== undefined; k++, j = above(j)) {
      const raw = (lines[j] as PlacedLine).text;
      const found = personName(raw, j === above(s));
      if (found) {
        name = found;
        top = j;
      } else if (!name && isStreet(raw, folded[j] as string)) {
        top = j;
      } else break;
      if (RECIPIENT.test(normalizeText(raw))) break;
    }
    // The block's first line and the line over it: a label where one of them starts with it (not the
    // "from" of "statement period from 1 July"), or a letterhead's company name.
    const head = above(top, 2.5);
    const ends = [head === undefined ? '' : normalizeText((lines[head] as PlacedLine).text), normalizeText((lines[top] as PlacedLine).text)];
    const labelled = (label: RegExp) => ends.some((text) => label.exec(text)?.index === 0);
    // "Remit to" and "ship to" also end in TO: the sender's labels are tried first, the delivery's next.
    if (labelled(SENDER)) score -= 4;
    else if (labelled(DELIVERY)) score += 3;
    else if (labelled(RECIPIENT)) score += 4;
    if (name) score += name.glued ? 1 : 2;
    else if (ends.some((text) => COMPANY.test(text))) score -= 3;
    if (PO_BOX.test(folded[s] as string)) score -= 1;
    const letterhead = lines[top] === firstLine || (head !== undefined && lines[head] === firstLine);
    blocks.push({ name: name?.text ?? '', street: streetText(folded[s] as string), city, state: place.state, zip: place.zip, score, at: lines[top] as PlacedLine, letterhead });
  });
  // Beside another block that may be the holder's, the one the page's first line heads is the letterhead: the issuer's, whatever its name looks like.
  if (blocks.some((b) => !b.letterhead && b.score >= 0)) for (const b of blocks) if (b.letterhead) b.score -= 4;
  // The best score; of equals, the first printed (the higher, or on the same row the one on the left). A
  // block with a sender's label or a letterhead and nothing of the holder's is never taken.
  const first = (a: PlacedLine, b: PlacedLine) => (Math.abs(a.top - b.top) < a.bottom - a.top ? a.left < b.left : a.top < b.top);
  return blocks
    .filter((b) => b.score >= 0)
    .sort((a, b) => b.score - a.score || (first(a.at, b.at) ? -1 : 1))
    .map(({ at: _, letterhead: __, ...block }) => block);
}

/** The holder's address block: the first of addressBlocks. */
export function findAddressBlock(lines: PlacedLine[], country: string): AddressBlock | undefined {
  return addressBlocks(lines, country)[0];
}

/** Confidence of an address read by the layout alone: below the rules' min_confidence, so it leads to review. */
const LAYOUT_GUESS = 0.5;

/**
 * Proof of address: the holder's block is taken from the page's layout (`placed`: the lines with their
 * boxes; a text layer's rows stacked when not given), name, street, city, state and postal code as
 * printed there. A value is trusted only where it agrees with the client's expected value; expected
 * data otherwise only picks among the blocks that may be the holder's. Without a block, expected
 * values are searched in the lines of their field's form only (never "CUSTOMER SUPPORT DEPARTMENT"
 * for a name).
 */
export function fillAddress(
  data: ExtractedData,
  confidence: Confidence,
  lines: string[],
  expected: ExpectedData | null,
  country: string,
  quality: number,
  placed: PlacedLine[] = stacked(lines),
): void {
  const set = (path: string, value: string, score: number) => {
    put(data, path, value);
    confidence[path] = Math.round(score * quality * 100) / 100;
  };
  // The holder's block as the layout places it; expected data only chooses among the blocks that may
  // be the holder's (never a sender's), and a value counts for a field only where that field is printed.
  const blocks = addressBlocks(placed, country);
  const claims: [string, keyof AddressBlock, string][] = [
    ['person.full_name', 'name', expected ? `${expected.person.first_name} ${expected.person.last_name}` : ''],
    ['address.street', 'street', expected?.address.street ?? ''],
    ['address.city', 'city', expected?.address.city ?? ''],
    ['address.state', 'state', expected?.address.state ?? ''],
    ['address.zip', 'zip', expected?.address.postal_code ?? ''],
  ];
  const agreeing = (b: AddressBlock) => claims.filter(([, key, claim]) => claim && findValue([String(b[key])], claim)).length;
  // Only among the blocks the layout ranks first: a client's values never lift a block the layout ranks lower (a letterhead's, a service address).
  const block = expected ? blocks.filter((b) => b.score === blocks[0]?.score).sort((a, b) => agreeing(b) - agreeing(a))[0] : blocks[0];
  if (block) {
    for (const [path, key, claim] of claims) {
      const value = String(block[key]);
      if (!value) continue;
      // The value read where the field is printed equals the client's (spaces aside): trusted; a character off
      // may be the layout's split ("MANCHESTERM1 1AE": city MANCHESTE, code RM1 1AE) or a misread: a guess, never trusted.
      const hit = claim ? (findValue([value], claim) ?? (path === 'person.full_name' ? findValue([value], `${expected?.person.last_name} ${expected?.person.first_name}`) : undefined)) : undefined;
      if (hit && hit.score === 1) set(path, hit.text, 1);
      else set(path, value, LAYOUT_GUESS / quality);
    }
  } else if (expected) {
    // No block: the expected values searched only in lines that print such a field (a name line, a street line, a city line).
    const names = placed.filter((l) => personName(l.text, false)).map((l) => l.text);
    const streets = placed.filter((l) => isStreet(l.text, unglue(l.text))).map((l) => l.text);
    const places = placed.filter((l) => cityLine(l.text, country)).map((l) => l.text);
    const where: Record<string, string[]> = { 'person.full_name': names, 'address.street': streets, 'address.city': places, 'address.state': places, 'address.zip': places };
    for (const [path, , claim] of claims) {
      const hit = claim ? findValue(where[path] ?? [], claim) : undefined;
      if (hit) set(path, hit.text, hit.confidence);
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
  // The letterhead's name (layouts/letter.ts issuerOf), else the page's first line of text.
  const first = lines.find((l) => normalizeText(l).length > 3);
  const issuer = issuerOf(placed) ?? (first && normalizeText(first));
  if (issuer) data.document.issuing_entity = issuer;
}
