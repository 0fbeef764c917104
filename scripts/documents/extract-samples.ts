/**
 * Runs generated documents through the offline extractor in this process and prints one JSON line per
 * document: { case, data, confidence, truth, ms }. Used by the offline extractor's tests (jest cannot
 * load the engines' ES modules in its own module system, so they run here, in plain Node).
 *
 *   tsx scripts/documents/extract-samples.ts passport:clean:1 driver-license:photographed:3 selfie:same:0
 *
 * A fourth part `turnN` turns the front N degrees clockwise (no EXIF tag, white corners): a page
 * photographed sideways, upside down or slanted.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { join, resolve } from 'node:path';
import ruleThresholds from '../../config/rules.json';
import { portraitOf, selfieOf } from './faces';
import { memoryExtractor } from './harness';
import { type Condition, generateDocument, type Kind } from './generate';
import { expectedFor, inputFor, score } from './score';

const { extractor, objects } = memoryExtractor(() => new Date('2026-11-22T00:00:00Z'));

async function run(spec: string): Promise<Record<string, unknown>> {
  const [kind, condition, seedText] = spec.split(':') as [string, string, string];
  const seed = Number(seedText);
  if (kind === 'selfie' && condition === 'pair') {
    // selfie:pair:<a>:<b> prints photograph <a> of ../shared/faces (FACES_DIR) on a passport and compares photograph <b> with it.
    const [, , a, b] = spec.split(':') as [string, string, string, string];
    const dir = resolve(process.env.FACES_DIR ?? join(__dirname, '..', '..', '..', 'shared', 'faces'), 'images');
    const passport = await generateDocument('passport', 'clean', 1, readFileSync(join(dir, a)));
    objects.set(`p-${a}/front`, passport.front);
    objects.set(`s-${b}/front`, readFileSync(join(dir, b)));
    const out = await extractor.extract({ ...inputFor(passport, `s-${b}`, null), contextType: 'SELFIE', documentType: { id: 6, name: 'Selfie' }, compareWith: { key: `p-${a}/front`, contentType: 'image/png' } });
    return { case: spec, ...out };
  }
  if (kind === 'selfie') {
    // selfie:same:<face> compares a selfie with a passport portrait of the same face; selfie:other:<face> with another face.
    const passport = await generateDocument('passport', 'clean', seed, await portraitOf(seed));
    objects.set(`p${seed}/front`, passport.front);
    objects.set(`s${seed}/front`, await selfieOf(condition === 'same' ? seed : seed + 1));
    const t = performance.now();
    const out = await extractor.extract({ ...inputFor(passport, `s${seed}`, null), contextType: 'SELFIE', documentType: { id: 6, name: 'Selfie' }, compareWith: { key: `p${seed}/front`, contentType: 'image/png' } });
    return { case: spec, ...out, ms: Math.round(performance.now() - t) };
  }
  const doc = await generateDocument(kind as Kind, condition as Condition, seed);
  const turn = /^turn(-?\d+)$/.exec(spec.split(':')[3] ?? '')?.[1];
  objects.set(`${spec}/front`, turn ? await sharp(doc.front).rotate(Number(turn), { background: '#ffffff' }).png().toBuffer() : doc.front);
  if (doc.back) objects.set(`${spec}/back`, doc.back);
  const t = performance.now();
  const out = await extractor.extract(inputFor(doc, spec, expectedFor(doc)));
  const ms = Math.round(performance.now() - t);
  return { case: spec, ...out, score: score(doc, out, ruleThresholds.min_confidence), identity: doc.identity, billDate: doc.bill?.date, ms };
}

async function main(): Promise<void> {
  for (const spec of process.argv.slice(2)) process.stdout.write(`${JSON.stringify(await run(spec))}\n`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
