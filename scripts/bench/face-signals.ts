/**
 * The face fraud signals, measured (`npm run bench:faces -- --signals`, also run at the end of a whole
 * `npm run bench:faces`); results go into bench/faces.json under `duplicateFace` and
 * `presentationAttacks`, the rest of the file is left as it is.
 *
 * - duplicateFace: the face-api descriptors of every photograph of ../shared/faces, compared 1:N as
 *   `duplicate.face` does (photo vs photo: selfies against selfies), at the flows' distance threshold:
 *   how many different photographs of one person are caught, whether any two people are (must be
 *   none), the lowest impostor distance and the margin; the same on the lookalike faces of
 *   scripts/documents/faces.ts (different women of the same photographs, the integration tests' faces).
 * - presentationAttacks: Human's antispoof and liveness scores (src/adapters/offline/face-engines.ts,
 *   as the service computes them) on the colour photographs (bona fide, but photographs, not live
 *   captures) and on attacks made from each of them, reproducibly: the photograph printed and
 *   photographed (the generated documents' "photographed" pipeline), shown on a screen and
 *   photographed (sub-pixel stripes, backlight gamma, bezel, then the same pipeline), and printed as
 *   the portrait of a generated ID card held up to the camera. Rates at config/rules.json's thresholds.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import sharp from 'sharp';
import flowsFile from '../../config/flows.json';
import ruleThresholds from '../../config/rules.json';
import { descriptorDistance, FACE_LOOKUP_LIMIT } from '../../src/app/workflow/face-duplicates';
import { faceApiEngine, faceImage, type PresentationScores, presentationModels, type Rgb } from '../../src/adapters/offline/face-engines';
import { faceSide } from '../../src/adapters/offline/face-match';
import { FACE_COUNT, portraitOf, selfieOf } from '../documents/faces';
import { generateDocument } from '../documents/generate';
import { random } from '../documents/identity';
import { degrade } from '../documents/render';

interface Entry { file: string; person: string; colour: 'colour' | 'grayscale' }

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const pct = (a: number, b: number) => (b ? Math.round((10000 * a) / b) / 100 : NaN);
const dist = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => r3(s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN);
  return { n: s.length, min: r3(s[0] ?? NaN), p5: at(5), p50: at(50), p95: at(95), max: r3(s[s.length - 1] ?? NaN) };
};

/** The photograph printed (white border) or shown on a screen (stripes, gamma, bezel), then photographed as the generated documents are. */
async function attack(photo: Buffer, kind: 'printed' | 'screen', seed: number): Promise<Buffer> {
  const png = await sharp(photo).removeAlpha().resize({ width: 640, height: 640, fit: 'inside', withoutEnlargement: true }).png().toBuffer();
  const image = await loadImage(png);
  const border = kind === 'printed' ? 30 : 48;
  const canvas = createCanvas(image.width + 2 * border, image.height + 2 * border);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = kind === 'printed' ? '#f4f1ea' : '#111111';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(image, border, border);
  if (kind === 'screen') {
    // A backlit LCD seen by a camera: brighter, bluer, lifted blacks, and the sub-pixel grid (every third column tinted, every fourth row darker).
    const img = ctx.getImageData(border, border, image.width, image.height);
    const d = img.data;
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const i = (y * image.width + x) * 4;
        for (let c = 0; c < 3; c++) {
          const v = 255 * ((d[i + c] ?? 0) / 255) ** 0.8;
          const stripe = x % 3 === c ? 1.12 : 0.94;
          const row = y % 4 === 0 ? 0.85 : 1;
          d[i + c] = Math.min(255, 18 + v * stripe * row * (c === 2 ? 1.08 : 1));
        }
      }
    }
    ctx.putImageData(img, border, border);
  }
  return degrade(canvas, 'photographed', random(seed));
}

/** The photograph cropped around its face and printed as the portrait of a generated ID card, photographed. */
async function idCard(photo: Buffer, rgb: Rgb, box: [number, number, number, number], seed: number): Promise<Buffer> {
  const meta = await sharp(photo).metadata();
  const [x, y, w] = box;
  const scale = Math.min(1, 1024 / Math.max(meta.width ?? 1, meta.height ?? 1));
  const margin = Math.round((rgb.width - (meta.width ?? 0) * scale) / 2);
  const cx = (x + w / 2 - margin) / scale;
  const cy = (y + box[3] / 2 - margin) / scale;
  const side = (w / scale) * 2;
  const left = Math.max(0, Math.round(cx - side / 2));
  const top = Math.max(0, Math.round(cy - side * 0.6));
  const crop = await sharp(photo).removeAlpha().extract({ left, top, width: Math.max(1, Math.min(Math.round(side), (meta.width ?? 0) - left)), height: Math.max(1, Math.min(Math.round(side * 1.25), (meta.height ?? 0) - top)) }).jpeg({ quality: 90 }).toBuffer();
  return (await generateDocument('id-card', 'photographed', seed, crop)).front;
}

export async function signals(facesDir: string, out: string): Promise<void> {
  if (!existsSync(join(facesDir, 'manifest.json'))) throw new Error(`no face set at ${facesDir} (set FACES_DIR)`);
  const started = performance.now();
  const engine = await faceApiEngine();
  const t0 = performance.now();
  const presentation = await presentationModels();
  const presentationLoadMs = Math.round(performance.now() - t0);
  const entries = JSON.parse(readFileSync(join(facesDir, 'manifest.json'), 'utf8')) as Entry[];
  const read = async (bytes: Buffer) => {
    const rgb = await faceImage(sharp, bytes, 40_000_000);
    return { rgb, ...faceSide(await engine.faces(rgb)) };
  };

  // ------------------------------------------------------------ duplicate face
  const checks = flowsFile.flows.map((f) => (f.checks as { duplicate_face_max_distance?: number }).duplicate_face_max_distance ?? 0.45);
  const max = Math.min(...checks);
  const photos: { e: Entry; bytes: Buffer; descriptor?: number[]; rgb: Rgb; box?: [number, number, number, number] }[] = [];
  for (const e of entries) {
    const bytes = readFileSync(join(facesDir, e.file));
    const side = await read(bytes);
    photos.push({ e, bytes, descriptor: side.face?.embedding, rgb: side.rgb, box: side.face?.box });
  }
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (let i = 0; i < photos.length; i++) {
    for (let j = i + 1; j < photos.length; j++) {
      const [a, b] = [photos[i], photos[j]];
      if (!a?.descriptor || !b?.descriptor) continue;
      (a.e.person === b.e.person ? genuine : impostor).push(descriptorDistance(a.descriptor, b.descriptor));
    }
  }
  const look: { face: number; descriptor: number[] }[] = [];
  for (let i = 0; i < FACE_COUNT; i++) {
    for (const bytes of [await selfieOf(i), await portraitOf(i)]) {
      const side = await read(bytes);
      if (side.face) look.push({ face: i, descriptor: side.face.embedding });
    }
  }
  const lookSame: number[] = [];
  const lookOther: number[] = [];
  for (let i = 0; i < look.length; i++) for (let j = i + 1; j < look.length; j++) (look[i]?.face === look[j]?.face ? lookSame : lookOther).push(descriptorDistance(look[i]?.descriptor ?? [], look[j]?.descriptor ?? []));
  const lowestImpostor = Math.min(...impostor);
  const duplicateFace = {
    threshold: max,
    lookupLimit: FACE_LOOKUP_LIMIT,
    photos: {
      images: photos.length,
      withoutFace: photos.filter((p) => !p.descriptor).length,
      genuinePairs: genuine.length,
      impostorPairs: impostor.length,
      genuineCaught: pct(genuine.filter((d) => d < max).length, genuine.length),
      impostorsCaught: impostor.filter((d) => d < max).length,
      genuine: dist(genuine),
      impostor: dist(impostor),
      marginToLowestImpostor: r3(lowestImpostor - max),
    },
    lookalikes: {
      source: 'scripts/documents/faces.ts: five women of two face-api demo photographs, a selfie-like and a portrait crop of each',
      samePairs: lookSame.length,
      otherPairs: lookOther.length,
      sameCaught: pct(lookSame.filter((d) => d < max).length, lookSame.length),
      othersCaught: lookOther.filter((d) => d < max).length,
      same: dist(lookSame),
      other: dist(lookOther),
      marginToLowestOther: r3(Math.min(...lookOther) - max),
    },
  };
  console.log(JSON.stringify(duplicateFace, null, 2));

  // ------------------------------------------------------------ presentation attacks
  const sets: Record<string, PresentationScores[]> = { genuine: [], printed: [], screen: [], idCard: [] };
  const noFace: Record<string, number> = { genuine: 0, printed: 0, screen: 0, idCard: 0 };
  const ms: number[] = [];
  const score = async (set: string, bytes: Buffer) => {
    const side = await read(bytes);
    if (!side.face) {
      noFace[set] = (noFace[set] ?? 0) + 1;
      return;
    }
    const t = performance.now();
    sets[set]?.push(await presentation.score(side.rgb, side.face.box));
    ms.push(performance.now() - t);
  };
  let seed = 0;
  for (const p of photos.filter((x) => x.e.colour === 'colour')) {
    seed++;
    if (!p.box) {
      noFace.genuine = (noFace.genuine ?? 0) + 1;
      continue;
    }
    const t = performance.now();
    sets.genuine?.push(await presentation.score(p.rgb, p.box));
    ms.push(performance.now() - t);
    await score('printed', await attack(p.bytes, 'printed', 100 + seed));
    await score('screen', await attack(p.bytes, 'screen', 200 + seed));
    await score('idCard', await idCard(p.bytes, p.rgb, p.box, 300 + seed));
  }
  const t = ruleThresholds.selfie_presentation;
  const summary = (xs: PresentationScores[]) => ({
    faces: xs.length,
    antispoof: dist(xs.map((x) => x.real)),
    liveness: dist(xs.map((x) => x.live)),
    flaggedByAntispoof: pct(xs.filter((x) => x.real < t.antispoof).length, xs.length),
    flaggedByLiveness: pct(xs.filter((x) => x.live < t.liveness).length, xs.length),
    flaggedByEither: pct(xs.filter((x) => x.real < t.antispoof || x.live < t.liveness).length, xs.length),
  });
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const presentationAttacks = {
    models: presentation.name,
    thresholds: t,
    note: 'genuine = the colour photographs of ../shared/faces: bona fide faces but photographs, not live captures; attacks made from each of them (printed and photographed; shown on a screen and photographed; printed on a generated ID card held up)',
    noFace,
    sets: Object.fromEntries(Object.entries(sets).map(([k, xs]) => [k, summary(xs)])),
    /** Fraction of attacks flagged when the threshold lets through all but 5 % of the genuine photographs (a 5 % false-alarm operating point). */
    atFivePercentGenuineFlagged: (() => {
      const g = sets.genuine ?? [];
      const cut = (xs: number[]) => sorted(xs)[Math.floor(0.05 * xs.length)] ?? 0;
      const [a, l] = [cut(g.map((x) => x.real)), cut(g.map((x) => x.live))];
      return {
        antispoofThreshold: r3(a),
        livenessThreshold: r3(l),
        attacksFlagged: Object.fromEntries(['printed', 'screen', 'idCard'].map((k) => [k, { antispoof: pct((sets[k] ?? []).filter((x) => x.real < a).length, (sets[k] ?? []).length), liveness: pct((sets[k] ?? []).filter((x) => x.live < l).length, (sets[k] ?? []).length) }])),
      };
    })(),
    /** Share of each set flagged (score below t) for a grid of thresholds: how much any threshold separates. */
    grid: [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map((th) => ({
      threshold: th,
      ...Object.fromEntries(Object.entries(sets).map(([k, xs]) => [k, { antispoof: pct(xs.filter((x) => x.real < th).length, xs.length), liveness: pct(xs.filter((x) => x.live < th).length, xs.length) }])),
    })),
    speed: { modelLoadMs: presentationLoadMs, msPerFace: dist(ms.map((x) => Math.round(x))) },
    /** Every score (3 decimals), so that other thresholds can be read off without running again. */
    scores: Object.fromEntries(Object.entries(sets).map(([k, xs]) => [k, xs.map((x) => [r3(x.real), r3(x.live)])])),
  };
  console.log(JSON.stringify(presentationAttacks, null, 2));
  const existing = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
  writeFileSync(out, `${JSON.stringify({ ...existing, duplicateFace, presentationAttacks, signalsRunSeconds: Math.round((performance.now() - started) / 1000) }, null, 2)}\n`);
}
