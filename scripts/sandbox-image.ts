import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sandboxPdf, sandboxPng } from '../src/adapters/sandbox/test-images';

const USAGE = `Usage: npm run sandbox-image -- --out FILE.png|FILE.pdf --json '<payload>'

Writes a test image carrying a sandbox payload (docs/how-to/integrate-the-api.md "Test mode"), e.g.
  npm run sandbox-image -- --out passport.png --json '{"person":{"given_names":"Ada","surname":"Lovelace","date_of_birth":"1990-12-10"},"document":{"number":"P1234567","expiration_date":"2031-01-01"}}'
  npm run sandbox-image -- --out bill.pdf --json '{"person":{"full_name":"Ada Lovelace"},"address":{"full":"1 Main St, Austin TX 78701","country":"USA"}}'`;

const { values } = parseArgs({ options: { out: { type: 'string' }, json: { type: 'string' } } });
if (!values.out || !values.json) {
  console.error(USAGE);
  process.exit(2);
}
let payload: unknown;
try {
  payload = JSON.parse(values.json);
} catch {
  console.error('--json is not valid JSON');
  process.exit(2);
}
const bytes = values.out.toLowerCase().endsWith('.pdf') ? sandboxPdf(payload) : sandboxPng(64, 40, 1, payload);
writeFileSync(values.out, bytes);
console.log(`Wrote ${values.out} (${bytes.length} bytes)`);
