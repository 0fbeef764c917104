/**
 * npm run -s screen -- --input people.csv [--lists <folder>] [--threshold 0.83] [--max-age-days N]
 *
 * Batch sanctions screening for a customer book (and for benches): reads a CSV with a header row and
 * the columns full_name, first_name, middle_name, last_name, gender, date_of_birth (YYYY, YYYY-MM or
 * YYYY-MM-DD), place_of_birth, nationality (ISO 3166-1 alpha-2), any of them empty, names in any
 * script; prints one JSON line per data row, in order:
 *   {"row": 1, "match": true, "score": 0.97, "hits": [{"list", "entry", "name", "score", "reasons"}]}
 * A bad row prints {"row": n, "error": "..."} and the run goes on. `--lists` is a folder of snapshots
 * as publishers distribute them (ofac-sdn.csv, un-consolidated.xml; ../shared/sanctions works as is);
 * default: config/screening, the repository's own FICTIONAL test lists. The snapshot dates go to
 * stderr; with --max-age-days, a list older than that stops the run (exit 3) instead of screening
 * against it. Exit 2: unusable arguments, input or lists.
 */
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseCsv } from '../src/adapters/screening/csv';
import { DEFAULT_SNAPSHOT_FOLDER, FileScreener } from '../src/adapters/screening/file-screener';
import { countryCode } from '../src/domain/screening/country-names';
import { parsePartialDate } from '../src/domain/screening/dates';
import { DEFAULT_SCREENING_THRESHOLD } from '../src/domain/screening/defaults';
import { MAX_NAME_CHARS } from '../src/domain/screening/normalise';
import type { ScreenedPerson, ScreeningPolicy } from '../src/domain/screening/types';

const COLUMNS = ['full_name', 'first_name', 'middle_name', 'last_name', 'gender', 'date_of_birth', 'place_of_birth', 'nationality'] as const;
type Column = (typeof COLUMNS)[number];
const MAX_INPUT_BYTES = 500_000_000;

function fail(message: string, code = 2): never {
  process.stderr.write(`screen: ${message}\n`);
  process.exit(code);
}

/** A data row as a person to screen, or the reason it cannot be one. */
export function rowToPerson(row: Partial<Record<Column, string>>): ScreenedPerson | { error: string } {
  const get = (c: Column) => (row[c] ?? '').trim();
  const person: ScreenedPerson = {};
  for (const [column, key] of [['full_name', 'fullName'], ['first_name', 'firstName'], ['middle_name', 'middleName'], ['last_name', 'lastName'], ['place_of_birth', 'placeOfBirth']] as const) {
    const value = get(column);
    if (value.length > MAX_NAME_CHARS) return { error: `${column} is longer than ${MAX_NAME_CHARS} characters` };
    if (value) person[key] = value;
  }
  if (!person.fullName && !person.firstName && !person.middleName && !person.lastName) return { error: 'no name: full_name or first_name/last_name is required' };
  const gender = get('gender').toLowerCase();
  if (gender) {
    if (['m', 'male'].includes(gender)) person.gender = 'male';
    else if (['f', 'female'].includes(gender)) person.gender = 'female';
    else return { error: 'gender must be male, female (m, f) or empty' };
  }
  const dob = get('date_of_birth');
  if (dob) {
    if (!parsePartialDate(dob)) return { error: 'date_of_birth must be YYYY, YYYY-MM or YYYY-MM-DD (a real date)' };
    person.dateOfBirth = dob;
  }
  const nationality = get('nationality').toUpperCase();
  if (nationality) {
    if (!/^[A-Z]{2}$/.test(nationality) || countryCode(nationality) !== nationality) return { error: 'nationality must be an ISO 3166-1 alpha-2 code' };
    person.nationality = nationality;
  }
  return person;
}

function main(): void {
  const { values } = parseArgs({
    options: { input: { type: 'string' }, lists: { type: 'string' }, threshold: { type: 'string' }, 'max-age-days': { type: 'string' } },
    strict: true,
  });
  if (!values.input) fail('--input <file.csv> is required');
  const threshold = values.threshold === undefined ? DEFAULT_SCREENING_THRESHOLD : Number(values.threshold);
  if (!(threshold > 0 && threshold <= 1)) fail('--threshold must be a number in (0, 1]');
  const maxAge = values['max-age-days'] === undefined ? undefined : Number(values['max-age-days']);
  if (maxAge !== undefined && !(Number.isInteger(maxAge) && maxAge > 0)) fail('--max-age-days must be a positive whole number');

  let text: string;
  try {
    if (statSync(values.input).size > MAX_INPUT_BYTES) fail(`${values.input} is larger than ${MAX_INPUT_BYTES} bytes`);
    text = readFileSync(values.input, 'utf8');
  } catch (error) {
    fail(`cannot read ${values.input}: ${(error as Error).message}`);
  }
  let rows: string[][];
  try {
    rows = parseCsv(text, values.input, { maxChars: MAX_INPUT_BYTES, maxRows: 10_000_000, maxFields: 64, maxFieldChars: 10_000 });
  } catch (error) {
    fail((error as Error).message);
  }
  const [header, ...data] = rows;
  if (!header) fail(`${values.input} is empty: a header row is expected`);
  const names = header.map((h) => h.trim().toLowerCase());
  if (!COLUMNS.some((c) => names.includes(c))) fail(`the header row names none of the columns ${COLUMNS.join(', ')}`);

  const folder = values.lists ?? DEFAULT_SNAPSHOT_FOLDER;
  let screener: FileScreener;
  try {
    screener = FileScreener.fromFolder(folder);
  } catch (error) {
    fail(`lists in ${folder}: ${(error as Error).message}`);
  }
  const loaded = screener.loadedSync();
  if (loaded.length === 0) fail(`no list snapshots in ${folder} (expected ofac-sdn.csv and/or un-consolidated.xml)`);
  process.stderr.write(`screen: lists ${loaded.map((l) => `${l.list} as of ${l.asOf} (${l.entries} entries)`).join(', ')}\n`);
  const now = new Date();
  const policy: ScreeningPolicy = { lists: loaded.map((l) => l.list), threshold, maxAgeDays: maxAge ?? Number.MAX_SAFE_INTEGER };

  data.forEach((fields, i) => {
    const row = i + 1;
    let line: unknown;
    if (fields.length !== header.length) {
      line = { row, error: `${fields.length} fields, the header has ${header.length}` };
    } else {
      const record: Partial<Record<Column, string>> = {};
      names.forEach((n, k) => {
        if ((COLUMNS as readonly string[]).includes(n)) record[n as Column] = fields[k];
      });
      const person = rowToPerson(record);
      if ('error' in person) line = { row, error: person.error };
      else {
        const result = screener.screenSync(person, policy, now);
        if (result.status !== 'screened') fail(result.message, 3);
        const score = result.hits[0]?.score ?? 0;
        line = { row, match: score >= threshold, score, hits: result.hits.map((h) => ({ list: h.list, entry: h.entry, name: h.name, score: h.score, reasons: h.reasons })) };
      }
    }
    process.stdout.write(`${JSON.stringify(line)}\n`);
  });
}

main();
