/**
 * npm run bench:liveness [-- --tries 10 --seed 1 --classes genuine,card --tries-for genuine=90,replay=90 --cache FILE --dump DIR --portrait read|beside|apart]: the active liveness check
 * (src/domain/liveness/verify.ts on observations of src/adapters/offline/face-observer.ts) against
 * attack sets built reproducibly (seeded) from ../shared/faces (read in place, never copied; FACES_DIR
 * overrides), and against a SYNTHETIC genuine set. Prints each class against its target and writes
 * bench/liveness.json.
 *
 * Classes (each try draws its own challenge, as the server would):
 * - genuine (SYNTHETIC): a photograph's face mesh lifted to 3-D and animated: turns, looking up,
 *   blinks, an open mouth, at the challenge's times, with sway, drift and camera noise. There is no
 *   open set of real head-turn videos here; the pass rate says how the check treats a rendered head,
 *   not how it treats people.
 * - still: the photograph replayed as frames, with jitter and noise.
 * - card: the photograph printed and held up, turned, tilted, slid and (half the tries) bent, moved
 *   in answer to the prompts.
 * - screen: the photograph on a screen (moiré, glare, a moving refresh band) held up and moved.
 * - splice: the genuine performance of one person with another person's frames spliced over one or
 *   two of its steps; the portrait is the first person's.
 * - replay: a genuine attempt's frames sent again under ANOTHER nonce, i.e. against a freshly drawn
 *   challenge, which only the draw's entropy defends: each recording is judged against REPLAY_DRAWS
 *   fresh draws (judging is cheap; observing is not), so the class has tries × REPLAY_DRAWS outcomes.
 *   Also reported: the same frames with their own, now used, nonce (refused by the store, modelled as
 *   the challenge read back with usedAt set), and the chance that a draw repeats a given sequence.
 * - order: the genuine head performing the right actions in the wrong order.
 *
 * Also: server verification time per challenge (observation of the frames with the ID portrait's
 * descriptor, as the service runs them, observeCapture; plus the check; wall and CPU, p50/p95),
 * frames and bytes per attempt. `--portrait`: `read` (the default) as the offline deployment runs it,
 * the selfie comparison of the same task having just read the portrait (not timed); `beside`, the
 * portrait read afresh beside the frames (a flow whose selfie comparison is Rekognition's); `apart`,
 * no portrait. Keep --tries small on a shared machine: a try costs a few seconds.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { faces } from '../../src/adapters/offline/engines';
import { faceImage, type Rgb } from '../../src/adapters/offline/face-engines';
import { faceSide } from '../../src/adapters/offline/face-match';
import { DETECT_EVERY, meshFaces, meshTriangles, noStages, type ObserveStages, observeFrames } from '../../src/adapters/offline/face-observer';
import { forgetPortraits, portraitSide } from '../../src/adapters/offline/face-selfie';
import { observeCapture, PORTRAIT_MAX_PIXELS } from '../../src/adapters/offline/liveness-observer';
import { SEQUENCES } from '../../src/app/liveness-challenge';
import type { FrameObservation, LivenessChallenge, LivenessReason } from '../../src/domain/liveness/types';
import { eyeSpans, LIVENESS_THRESHOLDS, verifyLiveness } from '../../src/domain/liveness/verify';
import { answer, between, cardHold, drawChallenge, drawChallengeWith, frameTimes, headPose, type Move, pick, rng } from './liveness/performance';
import { refusedLowerBound, replayRefusedBound } from './liveness/stats';
import { cameraNoise, type HeadModel, headModel, renderFlat, renderHead, room, screenEffects } from './liveness/scenes';

const ROOT = resolve(__dirname, '..', '..');
const FACES_DIR = resolve(process.env.FACES_DIR ?? join(ROOT, '..', 'shared', 'faces'));
/** What --portrait times beside the frames. */
const PORTRAIT_TIMING = {
  read: 'the ID portrait already read by the selfie comparison of the same task, as the offline deployment runs it',
  beside: 'the ID portrait read afresh beside the frames, as a deployment whose comparison is not offline runs it',
  apart: 'the frames alone, no ID portrait',
} as const;
const { values: args } = parseArgs({ options: { tries: { type: 'string', default: '10' }, seed: { type: 'string', default: '1' }, classes: { type: 'string' }, dump: { type: 'string' }, cache: { type: 'string' }, 'tries-for': { type: 'string' }, portrait: { type: 'string', default: 'read' }, out: { type: 'string', default: join(ROOT, 'bench', 'liveness.json') } } });
if (!(args.portrait in PORTRAIT_TIMING)) throw new Error(`--portrait: one of ${Object.keys(PORTRAIT_TIMING).join(', ')}`);
const TRIES = Number(args.tries);
/** --tries-for genuine=90,replay=90: other tries for some classes (a long run's classes judged from --cache beside fewer fresh ones). */
const TRIES_FOR = new Map((args['tries-for'] ?? '').split(',').filter(Boolean).map((kv) => [kv.split('=')[0] as string, Number(kv.split('=')[1])]));
const triesOf = (kind: string) => TRIES_FOR.get(kind) ?? TRIES;
const SEED = Number(args.seed);
const NOW = '2026-01-01T10:00:30.000Z';
const TARGET_REFUSED = 0.99;

/** Fresh challenges each replayed recording is judged against. */
const REPLAY_DRAWS = 100;
/** Fresh draws of its own sequence (new windows) each replayed recording is judged against. */
const REPLAY_OWN_DRAWS = 20;
const ATTACKS = ['still', 'card', 'screen', 'splice', 'replay', 'order'] as const;
type ClassName = 'genuine' | (typeof ATTACKS)[number];
const CLASSES: ClassName[] = (args.classes?.split(',') as ClassName[] | undefined) ?? ['genuine', ...ATTACKS];

interface Entry { file: string; person: string; colour: 'colour' | 'grayscale' }

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number) : Number.NaN;
};
const jpeg = (rgb: Rgb, quality: number) => sharp(rgb.data, { raw: { width: rgb.width, height: rgb.height, channels: 3 } }).jpeg({ quality }).toBuffer();

// ------------------------------------------------------------------ people and their head models
const entries = (JSON.parse(readFileSync(join(FACES_DIR, 'manifest.json'), 'utf8')) as Entry[]).filter((e) => e.colour === 'colour');
const byPerson = new Map<string, Entry[]>();
for (const e of entries) byPerson.set(e.person, [...(byPerson.get(e.person) ?? []), e]);
/** People with two colour photographs or more: one is animated, another is the ID portrait. */
const people = [...byPerson.entries()].filter(([, es]) => es.length >= 2).map(([p]) => p).sort();

const models = new Map<string, HeadModel | undefined>();
async function model(file: string): Promise<HeadModel | undefined> {
  if (!models.has(file)) {
    const triangles = await meshTriangles();
    const meshOf = async (rgb: Rgb) => {
      const found = (await meshFaces(rgb)).sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
      return found ? { mesh: found.mesh } : undefined;
    };
    models.set(file, await headModel(sharp, readFileSync(join(FACES_DIR, file)), meshOf, triangles));
  }
  return models.get(file);
}
const portraits = new Map<string, number[] | undefined>();
/** The portrait's descriptor as the pipeline computes it (face engine, faceImage, largest face). */
async function portrait(file: string): Promise<number[] | undefined> {
  if (!portraits.has(file)) {
    const engine = await faces();
    const side = faceSide(await engine.faces(await faceImage(sharp, readFileSync(join(FACES_DIR, file)), 40_000_000)));
    portraits.set(file, side.face?.embedding);
  }
  return portraits.get(file);
}

/** A person with a usable head model (face found, framed) and a portrait with a face, for this try. */
async function subject(random: () => number, except?: string): Promise<{ person: string; head: HeadModel; portrait: number[]; portraitFile: string }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const person = pick(random, people.filter((p) => p !== except));
    const photos = byPerson.get(person) ?? [];
    const source = pick(random, photos);
    const other = pick(random, photos.filter((e) => e !== source));
    const head = await model(source.file);
    const descriptor = await portrait(other.file);
    if (head && descriptor) return { person, head, portrait: descriptor, portraitFile: other.file };
  }
  throw new Error('no usable photographs');
}

// ------------------------------------------------------------------ one attempt
interface Attempt {
  frames: Buffer[];
  times: number[];
  challenge: LivenessChallenge;
  portrait: number[];
  /** The portrait's photograph: its descriptor is computed again beside the frames, as the service does, to time it. */
  portraitFile: string;
}

async function headFrames(random: () => number, head: HeadModel, moves: Move[], times: number[]): Promise<Buffer[]> {
  const sway = { phase: between(random, 0, 6), blinkAt: random() < 0.5 ? between(random, 0, times[times.length - 1] ?? 0) : -1000 };
  const gain = between(random, 0.9, 1.1);
  const out: Buffer[] = [];
  for (const ms of times) out.push(await jpeg(cameraNoise(renderHead(head, headPose(moves, ms, sway)), random, gain), 80));
  return out;
}

async function attempt(kind: ClassName, random: () => number, n: number): Promise<Attempt> {
  const challenge = drawChallenge(random, `nonce-${kind}-${n}`);
  const times = frameTimes(random, challenge);
  const me = await subject(random);
  if (kind === 'genuine' || kind === 'replay') {
    return { frames: await headFrames(random, me.head, answer(random, challenge.steps), times), times, challenge, portrait: me.portrait, portraitFile: me.portraitFile };
  }
  if (kind === 'order') {
    // The same actions in another order: rotate the steps' actions by one (never the original order).
    const actions = challenge.steps.map((s) => s.action);
    const shifted = challenge.steps.map((s, i) => ({ action: actions[(i + 1) % actions.length] ?? s.action, windowMs: s.windowMs }));
    return { frames: await headFrames(random, me.head, answer(random, shifted), times), times, challenge, portrait: me.portrait, portraitFile: me.portraitFile };
  }
  if (kind === 'splice') {
    const other = await subject(random, me.person);
    const moves = answer(random, challenge.steps);
    const mine = await headFrames(random, me.head, moves, times);
    const theirs = await headFrames(random, other.head, moves, times);
    // The other person performs one or two consecutive steps (from just before its window to its end).
    const first = Math.floor(random() * challenge.steps.length);
    const last = Math.min(challenge.steps.length - 1, first + (random() < 0.5 ? 0 : 1));
    const from = (challenge.steps[first]?.windowMs[0] ?? 0) - 100;
    const to = challenge.steps[last]?.windowMs[1] ?? 0;
    return { frames: times.map((ms, i) => ((ms >= from && ms <= to ? theirs[i] : mine[i]) as Buffer)), times, challenge, portrait: me.portrait, portraitFile: me.portraitFile };
  }
  // A picture of the person: still, card or screen.
  const background = room(Math.floor(random() * 1000));
  const style = {
    scale: kind === 'still' ? 1.06 : between(random, 0.8, 1.1),
    bend: kind === 'card' && random() < 0.5 ? between(random, 0.04, 0.15) : 0,
    roll: kind === 'still' ? 1 : between(random, 2, 12),
    slide: kind === 'still' ? 0 : between(random, -25, 25),
    phase: between(random, 0, 6),
  };
  const moves = kind === 'still' ? [] : answer(random, challenge.steps).map((m) => ({ ...m, amount: m.action.startsWith('turn') ? between(random, 25, 50) : m.action === 'look_up' || m.action === 'look_down' ? between(random, 20, 40) : m.amount }));
  const seed = Math.floor(random() * 1000);
  const gain = between(random, 0.9, 1.1);
  const frames: Buffer[] = [];
  for (const [k, ms] of times.entries()) {
    const picture = kind === 'screen' ? screenEffects(me.head.picture, k, seed) : me.head.picture;
    const hold = cardHold(moves, ms, style);
    frames.push(await jpeg(cameraNoise(renderFlat(picture, kind === 'still' ? { ...hold, yaw: 0, pitch: 0 } : hold, background), random, gain), 80));
  }
  return { frames, times, challenge, portrait: me.portrait, portraitFile: me.portraitFile };
}

// ------------------------------------------------------------------ run
interface Outcome { passed: boolean; reasons: LivenessReason[]; measures: Record<string, number>; wallMs: number; cpuMs: number; frames: number; bytes: number }

/** One attempt as observed: what the check needs, and what observing it cost. Kept in --cache between runs. */
interface Observed {
  challenge: LivenessChallenge;
  portrait: number[];
  observed: FrameObservation[];
  frames: number;
  bytes: number;
  wallMs: number;
  cpuMs: number;
  stages: ObserveStages;
}

/**
 * Observes an attempt's frames as the pipeline would (OfflineLivenessObserver given the challenge's
 * steps: eyes read around the blink windows only, a described frame in every window); the check
 * itself is timed with it in judge. A
 * replayed recording is judged against fresh draws whose blinks fall elsewhere: it is observed with
 * eyes on every frame, as each of those challenges would have it observed around its own windows.
 */
async function observe(a: Attempt, kind: ClassName): Promise<Observed> {
  const stages: ObserveStages = noStages();
  const portraitBytes = args.portrait === 'apart' ? undefined : readFileSync(join(FACES_DIR, a.portraitFile));
  forgetPortraits();
  // The selfie comparison's reading, before the check (--portrait read): not timed.
  if (portraitBytes && args.portrait === 'read') await portraitSide(sharp, await faces(), portraitBytes, PORTRAIT_MAX_PIXELS);
  // The bench's own garbage (rendered frames, head models, the --cache of earlier observations) is
  // collected before the clock starts: a service's process holds none of it (`npm run bench:liveness`
  // runs node with --expose-gc).
  (globalThis as { gc?: () => void }).gc?.();
  const wall = performance.now();
  const cpu = process.cpuUsage();
  // As observeChallenge runs it: the frames observed and the ID portrait's descriptor beside them.
  const { frames: observed } = await observeCapture(a.frames, a.times, { eyes: kind === 'replay' ? true : eyeSpans(a.challenge.steps), windows: a.challenge.steps.map((s) => s.windowMs), stages }, portraitBytes);
  const used = process.cpuUsage(cpu);
  return { challenge: a.challenge, portrait: a.portrait, observed, frames: a.frames.length, bytes: a.frames.reduce((s, f) => s + f.length, 0), wallMs: performance.now() - wall, cpuMs: (used.user + used.system) / 1000, stages };
}

function judge(o: Observed, challenge: LivenessChallenge): Outcome {
  const wall = performance.now();
  const verdict = verifyLiveness(challenge, o.observed, { now: NOW, portraitDescriptor: o.portrait });
  const checkMs = performance.now() - wall;
  return { ...verdict, wallMs: o.wallMs + checkMs, cpuMs: o.cpuMs + checkMs, frames: o.frames, bytes: o.bytes };
}

/** --dump DIR: an unexpected outcome's observations, frame by frame, and its frames without exactly one face. */
function dump(name: string, a: Attempt, observed: FrameObservation[]): void {
  const dir = resolve(args.dump as string);
  mkdirSync(dir, { recursive: true });
  const rows = observed.map((o) => [o.t, o.faces, o.yaw, o.pitch, o.eyeOpen, o.mouthOpen, o.descriptor ? 'D' : ''].map((x) => (typeof x === 'number' ? Math.round(x * 100) / 100 : x)).join('\t'));
  writeFileSync(join(dir, `${name}.tsv`), `${JSON.stringify(a.challenge.steps)}\nt\tfaces\tyaw\tpitch\teye\tmouth\n${rows.join('\n')}\n`);
  observed.forEach((o, i) => {
    if (o.faces !== 1) writeFileSync(join(dir, `${name}-frame${i}.jpg`), a.frames[i] as Buffer);
  });
}

async function main() {
  if (!existsSync(join(FACES_DIR, 'manifest.json'))) {
    console.log(`liveness bench: ${FACES_DIR} not found; nothing measured`);
    return;
  }
  await faces();
  // A warm container: the models loaded and run once before the first challenge is timed. What a
  // cold one adds to its first challenge is printed apart.
  const warm = await subject(rng(SEED));
  // Long enough to be cut in two (cutFor): the worker thread loads its models here too.
  const warmTimes = Array.from({ length: 4 * DETECT_EVERY }, (_, i) => i * 90);
  const warmFrames = await headFrames(rng(SEED + 1), warm.head, [{ action: 'blink', at: 100, amount: 1 }], warmTimes);
  const cold = process.cpuUsage();
  const coldWall = performance.now();
  await observeFrames(warmFrames, warmTimes, { eyes: true, describe: 2 });
  const coldUsed = process.cpuUsage(cold);
  const coldMs = Math.round((coldUsed.user + coldUsed.system) / 1000);
  const coldWallMs = Math.round(performance.now() - coldWall);
  const results: Record<string, Outcome[]> = {};
  const sameNonce: Outcome[] = [];
  /** One outcome per attempt: what upload sizes are measured on. */
  const perAttempt: Outcome[] = [];
  /** The attempts rendered in this run: their frames are the widget's as the code stands (a --cache keeps earlier ones). */
  const uploaded: Outcome[] = [];
  /** One outcome per attempt observed in this run (not read from --cache): what verification time is measured on. */
  const timed: Outcome[] = [];
  /** The observations made in this run, for the time of each stage. */
  const observedAll: Observed[] = [];
  /** Replayed recordings judged against fresh draws of every OTHER sequence: judged, passed. */
  const otherSequences = { judged: 0, passed: 0 };
  /** ... and against fresh draws of their OWN sequence (new windows): judged, passed. */
  const ownSequence = { judged: 0, passed: 0 };
  /** Attempts judged from --cache: observed (and timed) by an earlier run of the same sets. */
  let fromCache = 0;
  // --cache FILE keeps the observations (descriptors included: keep it out of the repository) so that
  // a change of threshold is judged again on the same sets without rendering and observing them again.
  const cacheFile = args.cache ? resolve(args.cache) : undefined;
  const cache: Record<string, Observed> = cacheFile && existsSync(cacheFile) ? (JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, Observed>) : {};
  for (const kind of CLASSES) {
    results[kind] = [];
    for (let n = 0; n < triesOf(kind); n++) {
      const key = `${kind}:${SEED}:${n}`;
      let o = cache[key];
      const cached = o !== undefined;
      if (o) fromCache++;
      if (!o) {
        const random = rng(SEED * 1_000_003 + ATTACKS.indexOf(kind as never) * 7919 + n * 104_729);
        const a = await attempt(kind, random, n);
        o = await observe(a, kind);
        cache[key] = o;
        if (cacheFile) writeFileSync(cacheFile, JSON.stringify(cache));
        const expected = kind === 'genuine';
        if (args.dump && judge(o, o.challenge).passed !== expected) dump(`${kind}-${n}`, a, o.observed);
      }
      let outcome: Outcome;
      if (kind === 'replay') {
        // The recording under its own nonce: the store refuses a used one (the challenge as it hands it over).
        sameNonce.push(judge(o, { ...o.challenge, usedAt: '2026-01-01T10:00:20.000Z' }));
        // Under other nonces: new draws, from a source of their own (the attempt's is spent).
        const draws = rng(SEED * 7_919 + n);
        const judged = Array.from({ length: REPLAY_DRAWS }, (_, k) => judge(o, drawChallenge(draws, `fresh-${n}-${k}`)));
        results[kind].push(...judged);
        outcome = judged.find((j) => j.passed) ?? (judged[0] as Outcome);
        // The bound: a replay passes only if its recording satisfies the fresh draw. Against each other
        // sequence (new windows) it should never; against its own it may (REPLAY_OWN_DRAWS draws).
        const own = SEQUENCES.findIndex((q) => q.join() === o.challenge.steps.map((st) => st.action).join());
        SEQUENCES.forEach((_, k) => {
          if (k === own) return;
          otherSequences.judged++;
          if (judge(o, drawChallengeWith(draws, `other-${n}-${k}`, k)).passed) otherSequences.passed++;
        });
        for (let k = 0; k < REPLAY_OWN_DRAWS; k++) {
          ownSequence.judged++;
          if (judge(o, drawChallengeWith(draws, `own-${n}-${k}`, own)).passed) ownSequence.passed++;
        }
      } else {
        outcome = judge(o, o.challenge);
        results[kind].push(outcome);
      }
      perAttempt.push(outcome);
      if (!cached) uploaded.push(outcome);
      // Replayed recordings are observed with eyes on every frame (they are judged against draws whose
      // blinks fall anywhere), which the service never does: they are not timed.
      if (!cached && kind !== 'replay') {
        timed.push(outcome);
        observedAll.push(o);
      }
      console.log(`${kind.padEnd(8)} #${n} ${outcome.passed ? 'PASSED ' : 'refused'} ${outcome.reasons.join(',').padEnd(40)} ${o.challenge.steps.map((s) => s.action).join('>')} ${Math.round(outcome.wallMs)} ms (CPU ${Math.round(outcome.cpuMs)} ms) ${JSON.stringify(outcome.measures)}`);
    }
  }

  const all = perAttempt;
  const rate = (xs: Outcome[], f: (o: Outcome) => boolean) => (xs.length ? xs.filter(f).length / xs.length : Number.NaN);
  const reasonCounts = (xs: Outcome[]) => xs.reduce<Record<string, number>>((m, o) => {
    for (const r of o.reasons) m[r] = (m[r] ?? 0) + 1;
    return m;
  }, {});
  /** How each class spreads on the figures the checks use: min, median, max over its tries. */
  const SUMMARY_KEYS = ['max_homography_residual_any_frame', 'posed_frames', 'parallax_frames', 'yaw_left_deg', 'yaw_right_deg', 'pitch_up_deg', 'eye_open_min_ratio', 'mouth_open_rise', 'max_frame_distance', 'portrait_distance', 'single_face_share'];
  const spreadOf = (xs: Outcome[]) =>
    Object.fromEntries(
      SUMMARY_KEYS.map((k) => {
        const v = xs.map((o) => o.measures[k]).filter((x): x is number => typeof x === 'number' && x >= 0);
        return [k, v.length ? [Math.min(...v), percentile(v, 50), Math.max(...v)] : []];
      }),
    );
  const classes = Object.fromEntries(
    Object.entries(results).map(([k, xs]) => [
      k,
      k === 'genuine'
        ? { tries: xs.length, passed: xs.filter((o) => o.passed).length, pass_rate: rate(xs, (o) => o.passed), synthetic: true, refusal_reasons: reasonCounts(xs), measures_min_median_max: spreadOf(xs) }
        : { tries: xs.length, refused: xs.filter((o) => !o.passed).length, refused_rate: rate(xs, (o) => !o.passed), refused_lower_bound_95: refusedLowerBound(xs.filter((o) => !o.passed).length, xs.length), target: TARGET_REFUSED, meets_target: refusedLowerBound(xs.filter((o) => !o.passed).length, xs.length) >= TARGET_REFUSED, reasons: reasonCounts(xs), measures_min_median_max: spreadOf(xs) },
    ]),
  );
  const replayBound = replayRefusedBound(otherSequences, SEQUENCES.length);
  if (classes.replay && 'refused_rate' in classes.replay) {
    Object.assign(classes.replay, {
      bound: {
        rule: 'a replay passes only when the fresh draw repeats its sequence (probability 1 / sequences, the draw being uniform) and its recording fits the new windows, or when the draw is another sequence and the recording satisfies it anyway (measured: every recording against fresh draws of every other sequence, its one-sided 95 % upper bound); the refusal rate is at least 1 minus both',
        sequences: SEQUENCES.length,
        other_sequences: otherSequences,
        own_sequence_new_windows: ownSequence,
        refused_at_least_95: replayBound,
      },
      meets_target: replayBound >= TARGET_REFUSED,
    });
  }
  const timing = {
    attempts_timed: timed.length,
    portrait: PORTRAIT_TIMING[args.portrait as keyof typeof PORTRAIT_TIMING],
    wall_ms: { p50: Math.round(percentile(timed.map((o) => o.wallMs), 50)), p95: Math.round(percentile(timed.map((o) => o.wallMs), 95)), max: Math.round(Math.max(...timed.map((o) => o.wallMs))) },
    cpu_ms: { p50: Math.round(percentile(timed.map((o) => o.cpuMs), 50)), p95: Math.round(percentile(timed.map((o) => o.cpuMs), 95)) },
    target_p95_ms: 2000,
    /** CPU ms of each stage per challenge (mean and p95 over attempts), and the frames each stage saw. */
    stages_cpu_ms: Object.fromEntries(
      (['decode', 'detect', 'track', 'describe'] as const).map((k) => {
        const xs = observedAll.map((o) => o.stages[k]);
        return [k, { mean: Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)), p95: Math.round(percentile(xs, 95)) }];
      }),
    ),
    stage_frames_mean: Object.fromEntries(
      (['frames', 'detectedFrames', 'eyeFrames', 'describedFrames'] as const).map((k) => [k, Math.round((10 * observedAll.reduce((a, o) => a + o.stages[k], 0)) / Math.max(1, observedAll.length)) / 10]),
    ),
  };
  const sized = uploaded.length ? uploaded : all;
  const sizes = {
    attempts: sized.length,
    frames: { mean: Math.round(sized.reduce((s, o) => s + o.frames, 0) / sized.length), max: Math.max(...sized.map((o) => o.frames)) },
    bytes: { mean: Math.round(sized.reduce((s, o) => s + o.bytes, 0) / sized.length), max: Math.max(...sized.map((o) => o.bytes)) },
    frame: '360×480 JPEG quality 80',
    note: uploaded.length ? 'the attempts rendered in this run (not read from --cache)' : 'every attempt, all read from --cache',
  };
  // The ID portrait's descriptor alone (the per-challenge figures above include it, computed beside
  // the frames): faceImage and the face engine with its detector.
  const portraitCpu: number[] = [];
  for (const person of people.slice(0, 8)) {
    const file = (byPerson.get(person) ?? [])[0]?.file;
    if (!file) continue;
    const cpu = process.cpuUsage();
    faceSide(await (await faces()).faces(await faceImage(sharp, readFileSync(join(FACES_DIR, file)), 4_000_000)));
    const used = process.cpuUsage(cpu);
    portraitCpu.push((used.user + used.system) / 1000);
  }
  const coldStart = { first_observation_frames: warmTimes.length, wall_ms: coldWallMs, cpu_ms: coldMs, note: 'a cold process: the first observation loads the worker thread and runs each model once for the first time in both threads; not in the figures per challenge' };
  const portraitTiming = { portraits: portraitCpu.length, cpu_ms_mean: Math.round(portraitCpu.reduce((a, b) => a + b, 0) / Math.max(1, portraitCpu.length)), cpu_ms_max: Math.round(Math.max(0, ...portraitCpu)), note: 'alone, on one thread; verification_time_per_challenge includes it, computed beside the frames as observeChallenge does' };
  const report = {
    bench: 'npm run bench:liveness',
    date: new Date().toISOString().slice(0, 10),
    seed: SEED,
    tries_per_class: Object.fromEntries(CLASSES.map((k) => [k, triesOf(k)])),
    machine: { cpus: cpus().length, load_average_1m_at_end: Math.round((loadavg()[0] ?? 0) * 10) / 10 },
    attempts_observed_by_an_earlier_run: fromCache,
    caveat: 'The genuine set is SYNTHETIC: photographs of ../shared/faces animated through their face mesh (turns, looking up, blinks, open mouth). Its pass rate is not a measured rate for real people. A class meets the 99 % target when the one-sided 95 % lower bound (Wilson) of its refusal rate does: with none failing, about 270 tries. The replay class is bounded by the draw instead (classes.replay.bound).',
    classes,
    replay_same_nonce: { tries: sameNonce.length, refused: sameNonce.filter((o) => !o.passed).length, reasons: reasonCounts(sameNonce) },
    replay_draws_per_recording: REPLAY_DRAWS,
    draw_repeats_a_sequence: { sequences: SEQUENCES.length, probability: Math.round(10_000 / SEQUENCES.length) / 10_000, note: 'drawSteps picks uniformly among the askable sequences: a replayed recording meets its own sequence again with this probability; its timing must then fit the new windows too' },
    verification_time_per_challenge: timing,
    portrait_descriptor: portraitTiming,
    cold_start: coldStart,
    upload_per_attempt: sizes,
    thresholds: LIVENESS_THRESHOLDS,
  };

  console.log('\nclass     tries  result                target');
  for (const [k, c] of Object.entries(classes)) {
    if ('pass_rate' in c && c.pass_rate !== undefined) console.log(`${k.padEnd(9)} ${String(c.tries).padStart(5)}  passed ${(100 * c.pass_rate).toFixed(1)} % (SYNTHETIC)   —   refusals ${JSON.stringify(c.refusal_reasons)}`);
    else if ('refused_rate' in c && c.refused_rate !== undefined) {
      const bound = k === 'replay' ? replayBound : c.refused_lower_bound_95;
      const how = k === 'replay' ? `bounded by the draw: at least ${(100 * bound).toFixed(2)} %, other sequences passed ${otherSequences.passed} of ${otherSequences.judged}` : `95 % lower bound ${(100 * bound).toFixed(1)} %`;
      console.log(`${k.padEnd(9)} ${String(c.tries).padStart(5)}  refused ${(100 * c.refused_rate).toFixed(1)} % (${how})  ≥ 99 %  ${bound >= TARGET_REFUSED ? 'met' : c.refused_rate >= TARGET_REFUSED ? 'not yet shown: more tries' : 'NOT MET'}  ${JSON.stringify(c.reasons)}`);
    }
  }
  console.log(`replay under its own (used) nonce: refused ${report.replay_same_nonce.refused}/${sameNonce.length}; a draw repeats a sequence with p = 1/${SEQUENCES.length}`);
  console.log(`verification per challenge (${timing.portrait}): wall p50 ${timing.wall_ms.p50} ms, p95 ${timing.wall_ms.p95} ms (target ≤ 2000); CPU p95 ${timing.cpu_ms.p95} ms; load average ${report.machine.load_average_1m_at_end} on ${report.machine.cpus} cores`);
  console.log(`stages, CPU ms per challenge (mean/p95): ${Object.entries(timing.stages_cpu_ms).map(([k, v]) => `${k} ${v.mean}/${v.p95}`).join(', ')}; frames per challenge: ${JSON.stringify(timing.stage_frames_mean)}`);
  console.log(`cold process: the first observation (${warmTimes.length} frames, before timing, both threads loading) took ${coldWallMs} ms (CPU ${coldMs} ms)`);
  console.log(`ID portrait descriptor alone (in the per-challenge figures, beside the frames): CPU mean ${portraitTiming.cpu_ms_mean} ms, max ${portraitTiming.cpu_ms_max} ms over ${portraitTiming.portraits} portraits`);
  console.log(`upload per attempt (${sizes.attempts} attempts, ${sizes.note}): ${sizes.frames.mean} frames (max ${sizes.frames.max}), ${Math.round(sizes.bytes.mean / 1024)} KiB (max ${Math.round(sizes.bytes.max / 1024)} KiB), ${sizes.frame}`);
  mkdirSync(join(args.out, '..'), { recursive: true });
  writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written ${args.out}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
