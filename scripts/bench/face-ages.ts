/**
 * npm run bench:face-ages: the selfie age estimate (face-api's age model, src/adapters/offline/face-engines.ts)
 * on the photographs of ../shared/faces (read in place; FACES_DIR overrides). The set labels people,
 * not ages, and its photographs were taken years apart, so no accuracy can be measured here: the
 * bench prints what can be, each person's estimates and their spread (a model whose estimates of
 * one adult range over 20 years could not back a 15-year gap rule), colour and grayscale apart, and
 * the time an estimate adds to a selfie. Writes bench/face-ages.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { faceApiEngine, faceImage } from '../../src/adapters/offline/face-engines';
import { faceSide } from '../../src/adapters/offline/face-match';

const ROOT = resolve(__dirname, '..', '..');
const FACES_DIR = resolve(process.env.FACES_DIR ?? join(ROOT, '..', 'shared', 'faces'));

interface Entry { file: string; person: string }

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

async function main(): Promise<void> {
  const entries = JSON.parse(readFileSync(join(FACES_DIR, 'manifest.json'), 'utf8')) as Entry[];
  const engine = await faceApiEngine();
  const byPerson = new Map<string, { grayscale: boolean; ages: number[] }>();
  const extraMs: number[] = [];
  let noFace = 0;
  for (const e of entries) {
    const rgb = await faceImage(sharp, readFileSync(join(FACES_DIR, e.file)), 40_000_000);
    const t0 = performance.now();
    const plain = await engine.faces(rgb);
    const t1 = performance.now();
    const { face } = faceSide(await engine.faces(rgb, { age: true }));
    extraMs.push(performance.now() - t1 - (t1 - t0));
    if (face?.age === undefined || plain.length === 0) {
      noFace++;
      continue;
    }
    const grayscale = e.file.endsWith('.png') && /^images\/(amy|bernadette|howard|leonard|penny|raj|sheldon|stuart)-/.test(e.file);
    const person = byPerson.get(e.person) ?? { grayscale, ages: [] };
    person.ages.push(Math.round(face.age * 10) / 10);
    byPerson.set(e.person, person);
  }
  const people = [...byPerson.entries()].map(([person, p]) => ({ person, grayscale: p.grayscale, ages: p.ages, spread: Math.round((Math.max(...p.ages) - Math.min(...p.ages)) * 10) / 10 }));
  const several = people.filter((p) => p.ages.length > 1);
  const spreads = (gray: boolean) => several.filter((p) => p.grayscale === gray).map((p) => p.spread);
  const report = {
    date: new Date().toISOString().slice(0, 10),
    model: 'face-api age_gender_model',
    images: entries.length,
    noFace,
    people,
    spreadYears: {
      colour: { people: spreads(false).length, median: quantile(spreads(false), 0.5), max: Math.max(...spreads(false)) },
      grayscale: { people: spreads(true).length, median: quantile(spreads(true), 0.5), max: Math.max(...spreads(true)) },
    },
    // Extra time of the age model per selfie (the detection and descriptor run either way).
    extraMsPerFace: { p50: Math.round(quantile(extraMs, 0.5)), p95: Math.round(quantile(extraMs, 0.95)) },
  };
  for (const p of people) console.log(`${p.person.padEnd(22)} ${p.grayscale ? 'gray ' : 'colour'} ${p.ages.map((a) => a.toFixed(0).padStart(3)).join(' ')}  spread ${p.spread}`);
  console.log(JSON.stringify({ spreadYears: report.spreadYears, extraMsPerFace: report.extraMsPerFace, noFace }, null, 1));
  mkdirSync(join(ROOT, 'bench'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'face-ages.json'), `${JSON.stringify(report, null, 1)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
