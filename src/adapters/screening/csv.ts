import { SnapshotFormatError } from './errors';

/** Bounds on a CSV a loader or the batch command accepts: beyond them the file is refused, never read for ever. */
export interface CsvLimits {
  maxChars: number;
  maxRows: number;
  maxFields: number;
  maxFieldChars: number;
}

export const DEFAULT_CSV_LIMITS: CsvLimits = { maxChars: 200_000_000, maxRows: 1_000_000, maxFields: 64, maxFieldChars: 100_000 };

/** An unquoted field: everything up to the next comma or line end. */
const BARE = /[^,\r\n]*/y;

/**
 * RFC 4180 CSV: comma-separated, double-quoted fields with `""` for a quote, CRLF or LF line ends,
 * a trailing DOS end-of-file byte (0x1A, which OFAC's files carry) ignored. One pass, linear in the
 * input; an unterminated quote or a limit exceeded throws SnapshotFormatError naming the line.
 */
export function parseCsv(text: string, file: string, limits: CsvLimits = DEFAULT_CSV_LIMITS): string[][] {
  if (text.length > limits.maxChars) throw new SnapshotFormatError(file, `larger than ${limits.maxChars} characters`);
  let end = text.length;
  while (end > 0 && (text[end - 1] === '\x1a' || text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  const body = text.slice(text.charCodeAt(0) === 0xfeff ? 1 : 0, end);
  const rows: string[][] = [];
  if (body.length === 0) return rows;
  let row: string[] = [];
  let line = 1;
  let i = 0;
  for (;;) {
    let field: string;
    if (body[i] === '"') {
      const start = line;
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = body.indexOf('"', j);
        if (q < 0) throw new SnapshotFormatError(file, `line ${start}: a quoted field is not closed`);
        value += body.slice(j, q);
        if (body[q + 1] === '"') {
          value += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
        if (value.length > limits.maxFieldChars) break;
      }
      BARE.lastIndex = j;
      const tail = BARE.exec(body)?.[0] ?? '';
      field = value + tail;
      for (let k = value.indexOf('\n'); k >= 0; k = value.indexOf('\n', k + 1)) line++;
      i = j + tail.length;
    } else {
      BARE.lastIndex = i;
      field = BARE.exec(body)?.[0] ?? '';
      i += field.length;
    }
    if (field.length > limits.maxFieldChars) throw new SnapshotFormatError(file, `line ${line}: a field longer than ${limits.maxFieldChars} characters`);
    row.push(field);
    if (row.length > limits.maxFields) throw new SnapshotFormatError(file, `line ${line}: more than ${limits.maxFields} fields`);
    if (i >= body.length) {
      rows.push(row);
      break;
    }
    const c = body[i];
    if (c === ',') {
      i++;
      continue;
    }
    // A line end.
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    if (rows.length > limits.maxRows) throw new SnapshotFormatError(file, `more than ${limits.maxRows} rows`);
    row = [];
    i += c === '\r' && body[i + 1] === '\n' ? 2 : 1;
    line++;
  }
  if (rows.length > limits.maxRows) throw new SnapshotFormatError(file, `more than ${limits.maxRows} rows`);
  return rows;
}
