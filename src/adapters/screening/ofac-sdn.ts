import { countryCode } from '../../domain/screening/country-names';
import type { ListedDate, ListedDocument, ListedName, ListEntry, ListSnapshot, SubjectKind } from '../../domain/screening/types';
import { parseCsv } from './csv';
import { SnapshotFormatError } from './errors';

/**
 * OFAC's Specially Designated Nationals list in its legacy CSV files (sdn.csv; alt.csv and add.csv
 * when present): no header row, `-0-` for an empty field, 12 columns in sdn.csv. For individuals the
 * date and place of birth, nationality, citizenship, gender, identity documents and the a.k.a. /
 * f.k.a. / n.k.a. names (strong) and weak a.k.a. names are inside Remarks, `;`-separated.
 */
export const OFAC_SDN = 'ofac-sdn';

/** The files of one OFAC snapshot: sdn.csv's text and, when published beside it, alt.csv and add.csv. */
export interface OfacFiles {
  sdn: string;
  alt?: string;
  add?: string;
}

const MAX_NAMES_PER_ENTRY = 500;
const MONTHS: Record<string, string> = { jan: '01', feb: '02', mar: '03', apr: '04', may: '05', jun: '06', jul: '07', aug: '08', sep: '09', oct: '10', nov: '11', dec: '12' };

/** Document kinds read from Remarks (the first words of a clause) and the name given to them. */
const DOCUMENT_KINDS: [RegExp, string][] = [
  [/^Passport\b/i, 'passport'],
  [/^Diplomatic Passport\b/i, 'passport'],
  [/^National ID No\./i, 'national_id'],
  [/^Identification Number\b/i, 'national_id'],
  [/^Cedula No\./i, 'national_id'],
  [/^D\.N\.I\./i, 'national_id'],
  [/^C\.U\.R\.P\./i, 'national_id'],
  [/^Personal ID Card\b/i, 'national_id'],
  [/^National Foreign ID Number\b/i, 'national_id'],
  [/^Tax ID No\./i, 'tax_id'],
  [/^SSN\b/i, 'national_id'],
  [/^Driver'?s License No\./i, 'driving_licence'],
];

function empty(value: string | undefined): boolean {
  return value === undefined || value.trim() === '-0-' || value.trim() === '';
}

function clean(value: string | undefined): string {
  return empty(value) ? '' : (value as string).trim();
}

function kindOf(type: string): SubjectKind {
  switch (type.toLowerCase()) {
    case 'individual':
      return 'person';
    case 'vessel':
      return 'vessel';
    case 'aircraft':
      return 'aircraft';
    default:
      return 'entity';
  }
}

/** "LAST, First Middle" → parts; an entity's or a one-part name has no parts. */
export function ofacName(full: string, kind: ListedName['kind'], quality: ListedName['quality'], person: boolean): ListedName {
  const comma = full.indexOf(',');
  if (!person || comma < 0) return { full, kind, quality };
  const family = full.slice(0, comma).trim();
  const given = full.slice(comma + 1).trim();
  return { full, kind, quality, parts: { family: family ? [family] : [], given: given ? [given] : [] } };
}

/** An OFAC date of birth: "10 Dec 1948", "Dec 1948", "1948", "circa 1948", "1963 to 1965", "01 Jan 1983 to 31 Dec 1985". */
export function ofacDate(text: string): ListedDate | undefined {
  const t = text.trim().replace(/\.$/, '');
  const range = /^(.*?)\s+to\s+(.*)$/i.exec(t);
  if (range) {
    const a = /(\d{4})$/.exec((range[1] as string).trim());
    const b = /(\d{4})$/.exec((range[2] as string).trim());
    if (a && b) return { fromYear: Number(a[1]), toYear: Number(b[1]) };
    return undefined;
  }
  const circa = /^circa\s+(\d{4})$/i.exec(t);
  if (circa) return { year: Number(circa[1]), approximate: true };
  const full = /^(\d{1,2})\s+([A-Za-z]{3})[a-z]*\s+(\d{4})$/.exec(t);
  if (full) {
    const month = MONTHS[(full[2] as string).toLowerCase()];
    return month ? { exact: `${full[3]}-${month}-${(full[1] as string).padStart(2, '0')}` } : undefined;
  }
  const month = /^([A-Za-z]{3})[a-z]*\s+(\d{4})$/.exec(t);
  if (month) {
    const m = MONTHS[(month[1] as string).toLowerCase()];
    return m ? { month: `${month[2]}-${m}` } : undefined;
  }
  const year = /^(\d{4})$/.exec(t);
  return year ? { year: Number(year[1]) } : undefined;
}

/** Splits Remarks into clauses at `;` outside an alias's quotes. */
function clauses(remarks: string): string[] {
  return remarks
    .replace(/\.\s*$/, '')
    .split(/;\s+/)
    .map((c) => c.trim())
    .filter(Boolean);
}

const ALIAS = /^(weak\s+)?(a\.k\.a\.|f\.k\.a\.|n\.k\.a\.)\s*'(.*)'\.?$/i;

function aliasKind(marker: string): ListedName['kind'] {
  return marker.toLowerCase() === 'f.k.a.' ? 'fka' : 'aka';
}

interface Details {
  names: ListedName[];
  dates: ListedDate[];
  places: string[];
  nationalities: string[];
  gender?: 'male' | 'female';
  documents: ListedDocument[];
}

function readRemarks(remarks: string, person: boolean): Details {
  const d: Details = { names: [], dates: [], places: [], nationalities: [], documents: [] };
  for (const raw of clauses(remarks)) {
    const clause = raw.replace(/^alt\.\s+/i, '');
    const alias = ALIAS.exec(clause);
    if (alias) {
      const name = (alias[3] as string).trim();
      if (name) d.names.push(ofacName(name, aliasKind(alias[2] as string), alias[1] ? 'weak' : 'strong', person));
      continue;
    }
    if (!person) continue;
    let m = /^DOB\s+(.+)$/i.exec(clause);
    if (m) {
      const date = ofacDate(m[1] as string);
      if (date) d.dates.push(date);
      continue;
    }
    m = /^POB\s+(.+)$/i.exec(clause);
    if (m) {
      d.places.push((m[1] as string).trim());
      continue;
    }
    m = /^(?:nationality|citizen)\s+(.+)$/i.exec(clause);
    if (m) {
      const code = countryCode(m[1]);
      if (code && !d.nationalities.includes(code)) d.nationalities.push(code);
      continue;
    }
    m = /^Gender\s+(Male|Female)\b/i.exec(clause);
    if (m) {
      d.gender = (m[1] as string).toLowerCase() as 'male' | 'female';
      continue;
    }
    for (const [pattern, type] of DOCUMENT_KINDS) {
      const head = pattern.exec(clause);
      if (!head) continue;
      const rest = clause.slice(head[0].length).trim();
      const number = /^(.+?)(?=\s*\(|\s+issued\b|\s+expires\b|$)/i.exec(rest)?.[1]?.trim();
      const country = /\(([^)]+)\)/.exec(rest)?.[1];
      if (number && /\d/.test(number)) d.documents.push({ type, number, ...(countryCode(country) ? { country: countryCode(country) } : {}) });
      break;
    }
  }
  return d;
}

/**
 * Parses one OFAC SDN snapshot. `asOf` is the date it was taken: the legacy files carry none.
 * Throws SnapshotFormatError on a row that is not OFAC's 12 columns or an ent_num that is not a
 * number, so that a truncated or foreign file is refused whole.
 */
export function parseOfacSdn(files: OfacFiles, asOf: string): ListSnapshot {
  const rows = parseCsv(files.sdn, 'sdn.csv', { maxChars: 100_000_000, maxRows: 200_000, maxFields: 12, maxFieldChars: 50_000 });
  const entries = new Map<string, ListEntry>();
  rows.forEach((row, i) => {
    if (row.length !== 12) throw new SnapshotFormatError('sdn.csv', `row ${i + 1}: ${row.length} columns, OFAC's sdn.csv has 12`);
    const [entNum = '', name = '', type = '', program = '', , , , , , , , remarks = ''] = row;
    const id = entNum.trim();
    if (!/^\d{1,10}$/.test(id)) throw new SnapshotFormatError('sdn.csv', `row ${i + 1}: ent_num is not a number`);
    if (empty(name)) throw new SnapshotFormatError('sdn.csv', `row ${i + 1}: no name`);
    const kind = kindOf(clean(type));
    const person = kind === 'person';
    const details = readRemarks(clean(remarks), person);
    entries.set(id, {
      list: OFAC_SDN,
      id,
      reference: id,
      kind,
      names: [ofacName(clean(name), 'primary', 'strong', person), ...details.names].slice(0, MAX_NAMES_PER_ENTRY),
      datesOfBirth: details.dates,
      placesOfBirth: details.places,
      nationalities: details.nationalities,
      ...(details.gender ? { gender: details.gender } : {}),
      documents: details.documents,
      programmes: clean(program)
        .split(/\]\s*\[/)
        .map((p) => p.replace(/[[\]]/g, '').trim())
        .filter(Boolean),
    });
  });
  if (files.alt) addAltNames(files.alt, entries);
  if (files.add) checkAddresses(files.add);
  return { list: OFAC_SDN, asOf, entries: [...entries.values()] };
}

/** alt.csv: ent_num, alt_num, alt_type (aka, fka, nka), alt_name, alt_remarks ("weak" marks a weak alias). */
function addAltNames(text: string, entries: Map<string, ListEntry>): void {
  const rows = parseCsv(text, 'alt.csv', { maxChars: 100_000_000, maxRows: 500_000, maxFields: 5, maxFieldChars: 10_000 });
  rows.forEach((row, i) => {
    if (row.length !== 5) throw new SnapshotFormatError('alt.csv', `row ${i + 1}: ${row.length} columns, OFAC's alt.csv has 5`);
    const [entNum = '', , type = '', name = '', remarks = ''] = row;
    const entry = entries.get(entNum.trim());
    if (!entry || empty(name) || entry.names.length >= MAX_NAMES_PER_ENTRY) return;
    const full = clean(name);
    const quality = /weak/i.test(clean(remarks)) ? 'weak' : 'strong';
    if (entry.names.some((n) => n.full === full)) return;
    entry.names.push(ofacName(full, clean(type).toLowerCase() === 'fka' ? 'fka' : 'aka', quality, entry.kind === 'person'));
  });
}

/** add.csv (addresses) is validated (it must be OFAC's 6 columns) but not used: screening compares persons, not addresses. */
function checkAddresses(text: string): void {
  const rows = parseCsv(text, 'add.csv', { maxChars: 100_000_000, maxRows: 500_000, maxFields: 6, maxFieldChars: 10_000 });
  rows.forEach((row, i) => {
    if (row.length !== 6) throw new SnapshotFormatError('add.csv', `row ${i + 1}: ${row.length} columns, OFAC's add.csv has 6`);
  });
}
