/**
 * npm run sample-documents [-- --seed 7 --condition photographed --out samples]: writes a generated
 * passport and utility bill (and a matching Create Verification body) for trying the offline
 * extractor by hand; see docs/explanation/extraction-accuracy.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Condition, expectedData, generateDocument } from './documents/generate';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seed: { type: 'string', default: '7' }, condition: { type: 'string', default: 'clean' }, out: { type: 'string', default: 'samples' } } });
  const seed = Number(values.seed);
  const condition = values.condition as Condition;
  const passport = await generateDocument('passport', condition, seed);
  const bill = await generateDocument('utility-bill', condition, seed + 1, undefined, passport.identity);
  mkdirSync(values.out, { recursive: true });
  const ext = condition === 'clean' ? 'png' : 'jpg';
  writeFileSync(join(values.out, `passport.${ext}`), passport.front);
  writeFileSync(join(values.out, `utility-bill.${ext}`), bill.front);
  writeFileSync(join(values.out, 'verification.json'), `${JSON.stringify({ vendor_reference: `sample-${seed}`, ...expectedData(passport, bill) }, null, 2)}\n`);
  writeFileSync(join(values.out, 'countries.json'), `${JSON.stringify({ passport: passport.country, utility_bill: bill.country })}\n`);
  console.log(`Wrote ${values.out}/passport.${ext}, ${values.out}/utility-bill.${ext}, ${values.out}/verification.json (passport country ${passport.country}, bill country ${bill.country})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
