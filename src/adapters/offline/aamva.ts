/** Fields of a US/Canadian licence or ID card from its PDF417 barcode text (AAMVA DL/ID standard). */
export interface LicenceFields {
  surname: string;
  givenNames: string;
  /** YYYY-MM-DD; empty when the barcode's date is impossible. */
  dateOfBirth: string;
  /** YYYY-MM-DD; empty when the barcode's date is impossible. */
  expirationDate: string;
  number: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  /**
   * Fields that are not to be trusted: dates (dateOfBirth, expirationDate) impossible or out of order
   * with the others, names (surname, givenNames) the barcode says it truncated.
   */
  untrusted: string[];
}

/**
 * Issuer identification numbers of the Canadian jurisdictions (AAMVA IIN list): their dates are
 * YYYYMMDD in every version, where US ones are MMDDYYYY from version 02 on.
 */
const CANADIAN_IINS = new Set(['636012', '636013', '636016', '636017', '636028', '636044', '636048', '604426', '604428', '604429', '604432', '604433', '604434']);
const PROVINCES = new Set(['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']);

/** The header: `ANSI ` (or the pre-standard `AAMVA`), the issuer's IIN and the AAMVA version. */
const HEADER = /(?:ANSI ?|AAMVA)(\d{6})(\d{2})/;

/** An element's value: the element starts a line, or directly follows its subfile type (DL, ID). */
function element(text: string, id: string): string {
  const m = new RegExp(`(?:^|[\\n\\r]|DL|ID)${id}([^\\n\\r]*)`).exec(text);
  const value = (m?.[1] ?? '').trim();
  return /^(NONE|UNAVL|UNAVAIL|unavl)$/i.test(value) ? '' : value;
}

type DateOrder = 'YMD' | 'MDY';
/** An 8-digit AAMVA date as YYYY-MM-DD in the given order, or undefined when it is no date between 1900 and 2100. */
function dateAs(raw: string, order: DateOrder): string | undefined {
  if (!/^\d{8}$/.test(raw)) return undefined;
  const [y, m, d] = order === 'YMD' ? [raw.slice(0, 4), raw.slice(4, 6), raw.slice(6, 8)] : [raw.slice(4, 8), raw.slice(0, 2), raw.slice(2, 4)];
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  if (year < 1900 || year > 2100 || month < 1 || month > 12 || day < 1) return undefined;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  return `${y}-${m}-${d}`;
}

/**
 * Reads a date in the order its version and jurisdiction prescribe, else in the other order (a year
 * between 1900 and 2100 cannot be read both ways: MM would be 19–21); undefined when neither is a date.
 */
function aamvaDate(raw: string, order: DateOrder): string | undefined {
  return dateAs(raw, order) ?? dateAs(raw, order === 'YMD' ? 'MDY' : 'YMD');
}

/** Given names written `FIRST,MIDDLE` (version 02–03 DCT, 04 on DAD's middle names) or with spaces. */
const words = (value: string): string[] => value.split(/[,$\s]+/).filter(Boolean);

/**
 * Version 01's full name, `LAST,FIRST,MIDDLE` (DL/ID-2000 DAA: the bar code separates the parts with
 * commas, the magnetic stripe with `$`): a part can hold spaces (VAN DER BERG), so the parts are split
 * at the separators; a name without any is split at its spaces.
 */
const nameParts = (value: string): string[] => value.split(/[,$]/.test(value) ? /[,$]/ : /\s+/).map((p) => p.trim()).filter(Boolean);

/**
 * Parses AAMVA text by its version and issuer; undefined when it is not an AAMVA barcode. Dates are
 * YYYYMMDD for Canadian issuers and in version 01 (AAMVA DL/ID-2000), MMDDYYYY for US issuers from
 * version 02; an impossible date is left empty and untrusted, and dates out of order (birth after
 * issue, issue after expiry) are all untrusted; so are names the barcode flags as truncated.
 */
export function parseAamva(text: string): LicenceFields | undefined {
  const header = HEADER.exec(text);
  if (!header) return undefined;
  const iin = header[1] as string;
  const version = Number(header[2]);
  const state = element(text, 'DAJ');
  const declared = element(text, 'DCG');
  const canadian = declared ? declared === 'CAN' : CANADIAN_IINS.has(iin) || PROVINCES.has(state);
  const order: DateOrder = canadian || version <= 1 ? 'YMD' : 'MDY';
  const number = element(text, 'DAQ');
  if (!number && !element(text, 'DCS') && !element(text, 'DAA')) return undefined;

  const full = nameParts(element(text, 'DAA'));
  const surname = element(text, 'DCS') || element(text, 'DAB') || (full[0] ?? '');
  const first = element(text, 'DAC') || element(text, 'DCT') || full.slice(1).join(' ');
  const middle = element(text, 'DAC') ? element(text, 'DAD') : '';
  const givenNames = [...words(first), ...words(middle)].join(' ');

  const untrusted: string[] = [];
  // Truncation indicators (version 04 on): T when the name was longer than the field and was cut.
  if (element(text, 'DDE') === 'T') untrusted.push('surname');
  if (element(text, 'DDF') === 'T' || element(text, 'DDG') === 'T') untrusted.push('givenNames');
  const birth = aamvaDate(element(text, 'DBB'), order);
  const expiry = aamvaDate(element(text, 'DBA'), order);
  const issueRaw = element(text, 'DBD');
  const issue = issueRaw ? aamvaDate(issueRaw, order) : undefined;
  if (!birth) untrusted.push('dateOfBirth');
  if (!expiry) untrusted.push('expirationDate');
  const ordered = [birth, issue, expiry].filter((d): d is string => Boolean(d));
  if (ordered.some((d, i) => i > 0 && d <= (ordered[i - 1] as string))) {
    for (const f of ['dateOfBirth', 'expirationDate']) if (!untrusted.includes(f)) untrusted.push(f);
  }

  const postal = element(text, 'DAK').replace(/\s+/g, '');
  const zip = canadian ? postal.slice(0, 6) : postal.replace(/-/g, '').replace(/0000$/, '').slice(0, 5);
  return {
    surname,
    givenNames,
    dateOfBirth: birth ?? '',
    expirationDate: expiry ?? '',
    number,
    street: element(text, 'DAG'),
    city: element(text, 'DAI'),
    state,
    zip,
    country: canadian ? 'CAN' : 'USA',
    untrusted,
  };
}
