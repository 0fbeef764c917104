import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { LIVENESS_LANDMARKS, type LivenessLandmark } from '../../domain/liveness/landmarks';
import type { FrameObservation } from '../../domain/liveness/types';
import { faces, sharpModule } from './engines';
import { type FaceEngine, loadHuman, type Rgb } from './face-engines';
import { faceSide, SEVERAL_FACES_RATIO } from './face-match';
import { observerThread } from './face-observer-thread';

/**
 * What the face models see in each frame of a liveness capture (FrameObservation): Human's 468-point
 * mesh on every frame (face count, head pose, eye and mouth openness, a fixed landmark subset), its
 * face detector on every fifth frame (the others follow the faces found, DETECT_EVERY), and the
 * service's face engine (face-api, face-match.ts) on a few chosen frames for the same-person and
 * portrait checks. Frames are decoded one at a time and downscaled, so memory
 * stays bounded whatever the burst; models load once per process (engines.ts for face-api, here for
 * Human, which shares face-api's tfjs WebAssembly backend).
 */

/** Longest side a frame is read at: the mesh model reads a 192-pixel face crop, so more is wasted. */
export const OBSERVER_MAX_SIDE = 480;
/** Largest frame accepted before decoding (pixels), against decompression bombs. */
export const OBSERVER_MAX_PIXELS = 4_000_000;
/**
 * Frames given a face-engine descriptor (landmarks and 128-D network at the face Human found, about
 * 0.06 s of CPU each): the most frontal one and one at each extreme where an action shows (framesToDescribe).
 */
export const OBSERVER_DESCRIBED_FRAMES = 5;

/** MediaPipe face-mesh indices (Human's mesh) of each landmark of LIVENESS_LANDMARKS. */
const MESH_INDEX: Record<LivenessLandmark, number> = {
  nose_tip: 1,
  nose_bridge: 6,
  chin: 152,
  forehead: 10,
  eye_outer_image_left: 33,
  eye_inner_image_left: 133,
  eye_inner_image_right: 362,
  eye_outer_image_right: 263,
  mouth_image_left: 61,
  mouth_image_right: 291,
  cheek_image_left: 234,
  cheek_image_right: 454,
  temple_image_left: 127,
  temple_image_right: 356,
  jaw_image_left: 172,
  jaw_image_right: 397,
  jaw_low_image_left: 150,
  jaw_low_image_right: 379,
  brow_image_left: 105,
  brow_image_right: 334,
};
/** Eyelids (upper, lower) and corners of each eye; inner lips (upper, lower) and mouth corners. */
const EYES = [
  { lids: [159, 145], corners: [33, 133] },
  { lids: [386, 374], corners: [362, 263] },
] as const;
const LIPS = { lids: [13, 14], corners: [61, 291] } as const;
/** Eye aspect ratio (lids over corners, with the iris model refining the lids) of a wide-open eye: eyeOpen is the ratio over it, capped at 1. */
const OPEN_EYE_RATIO = 0.6;

type Mesh = [number, number, number?][];
export interface HumanFace {
  box: [number, number, number, number];
  mesh: Mesh;
  rotation?: { angle: { yaw: number; pitch: number; roll: number } };
}
interface Human {
  faceTriangulation: number[];
  tf: { tensor(data: Int32Array, shape: number[], dtype: string): unknown; dispose(t: unknown): void };
  detect(input: unknown, config: object): Promise<{ face: HumanFace[] }>;
}

/**
 * How each frame is read. `detect`: the face detector runs on the whole frame (BlazeFace, about 45 ms
 * of CPU, most of a frame's cost), and nothing is carried over from the previous frame. Otherwise the
 * mesh runs on the box where the previous frame's mesh put each face (MediaPipe's own tracking: Human
 * keeps the boxes and, with a skip allowed, does not run its detector); a face the mesh no longer
 * finds there is dropped, and the next frame is detected afresh. The detector's skipFrames and
 * skipTime alone decide. Human also allows a skip only when its input-change measure is under
 * `cacheSensitivity`, measured against the last frame it kept, which it keeps only when that
 * measure is on: on for every frame and set beyond reach, every frame is kept, so a followed frame
 * is always compared with one of its own capture. (Off on detected frames, as before 2026-11-27, the
 * first followed frame of a process, or after a capture of another frame size, was silently
 * detected instead: observations depended on what the process had observed before.) The iris model
 * refines the eyelids (without it the mesh barely closes its eyes on a blink); it costs about a third
 * of a frame's time, so it runs only where eyes are asked for.
 */
const perFrame = (eyes: boolean, detect = true) => ({
  cacheSensitivity: Number.MAX_SAFE_INTEGER,
  face: {
    detector: { skipFrames: detect ? 0 : Number.MAX_SAFE_INTEGER, skipTime: detect ? 0 : Number.MAX_SAFE_INTEGER, maxDetected: 5 },
    mesh: { enabled: true },
    iris: { enabled: eyes },
    description: { enabled: false },
    emotion: { enabled: false },
  },
});

let human: Promise<Human> | undefined;
/**
 * Human's detector, mesh and iris models, loaded after the face engine so that both run on the one
 * tfjs backend. The iris model is loaded here too (loadHuman leaves it off): otherwise the first
 * challenge asking for a blink would read it from disk inside its own verification.
 */
function humanModels(): Promise<Human> {
  human ??= faces()
    .then(() => loadHuman({ model: 'none' }))
    .then(async (h) => {
      await (h.instance as unknown as { load(config: object): Promise<void> }).load({ face: { iris: { enabled: true } } });
      return h.instance as unknown as Human;
    })
    .catch((error: unknown) => {
      human = undefined;
      throw error;
    });
  return human;
}

const dist = (m: Mesh, [a, b]: readonly [number, number]) => {
  const p = m[a];
  const q = m[b];
  return p && q ? Math.hypot(p[0] - q[0], p[1] - q[1]) : 0;
};
const ratio = (m: Mesh, part: { lids: readonly [number, number]; corners: readonly [number, number] }) => {
  const width = dist(m, part.corners);
  return width > 0 ? dist(m, part.lids) / width : 0;
};
const degrees = (rad: number) => (rad * 180) / Math.PI;

async function decode(bytes: Uint8Array): Promise<Rgb> {
  const sharp = await sharpModule();
  const { data, info } = await sharp(bytes, { limitInputPixels: OBSERVER_MAX_PIXELS })
    .rotate()
    .resize({ width: OBSERVER_MAX_SIDE, height: OBSERVER_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The faces Human finds in a picture, each with its 468-point mesh (x, y in pixels; z grows away from
 * the camera). `detect: false` follows the faces of the previous call instead of detecting them
 * (perFrame): only for consecutive frames of one capture, under `humanLock`.
 */
export async function meshFaces(rgb: Rgb, eyes = true, detect = true): Promise<HumanFace[]> {
  const h = await humanModels();
  const tensor = h.tf.tensor(int32Of(rgb.data), [1, rgb.height, rgb.width, 3], 'int32');
  try {
    return (await h.detect(tensor, perFrame(eyes, detect))).face.filter((f) => f.mesh.length >= 468);
  } finally {
    h.tf.dispose(tensor);
  }
}

/**
 * The frame's bytes as the int32 values Human's input tensor takes, in one buffer reused from frame
 * to frame (the backend copies them into its own memory when the tensor is made): a fresh 2 MB array
 * per frame was garbage the collector then spent CPU on.
 */
let scratch = new Int32Array(0);
function int32Of(data: Uint8Array): Int32Array {
  if (scratch.length < data.length) scratch = new Int32Array(data.length);
  const values = scratch.subarray(0, data.length);
  values.set(data);
  return values;
}

/**
 * Human keeps the faces it follows in its module, for the whole process: one capture at a time is
 * meshed, so that a capture never follows a face of another. Chained promises; a failure releases it.
 */
let humanLock: Promise<unknown> = Promise.resolve();
function exclusive<T>(work: () => Promise<T>): Promise<T> {
  const run = humanLock.then(work, work);
  humanLock = run.catch(() => undefined);
  return run;
}

/** The mesh's triangles (index triples, MediaPipe's), for the bench that animates a photograph. */
export async function meshTriangles(): Promise<number[]> {
  return (await humanModels()).faceTriangulation;
}

/**
 * Where face-api's SSD detector draws the box of a face whose mesh spans `box` (x, y, width, height
 * of the mesh's points), as fractions of the mesh's box: measured on rendered captures (left −0.05..0.02,
 * top −0.13..−0.04, width 1.02..1.09, height 1.01..1.13 over turns of ±20°). From such a box face-api's
 * landmarks and descriptor differ from the detector's by 0.00–0.13 (Euclidean; same-person line 0.6).
 */
const FACE_API_BOX = { left: -0.01, top: -0.07, width: 1.05, height: 1.06 } as const;

function faceApiBox(mesh: Mesh): [number, number, number, number] {
  const xs = mesh.slice(0, 468).map((p) => p[0]);
  const ys = mesh.slice(0, 468).map((p) => p[1]);
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  const [w, h] = [Math.max(...xs) - x, Math.max(...ys) - y];
  return [x + FACE_API_BOX.left * w, y + FACE_API_BOX.top * h, FACE_API_BOX.width * w, FACE_API_BOX.height * h];
}

/** One frame's observation, and where its face is for the face engine (single-face frames only). */
export interface Meshed {
  observation: FrameObservation;
  box?: [number, number, number, number];
}

/** One frame through Human: the largest face's pose, openness and landmarks, and how many people. */
async function meshFrame(rgb: Rgb, t: number, sha256: string, eyes: boolean, detect: boolean): Promise<Meshed> {
  const found = await meshFaces(rgb, eyes, detect);
  const largest = [...found].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
  const count = largest ? found.filter((f) => f.box[2] >= SEVERAL_FACES_RATIO * largest.box[2]).length : 0;
  if (!largest || count !== 1) return { observation: { t, faces: count, sha256 } };
  const m = largest.mesh;
  const angle = largest.rotation?.angle;
  const observation: FrameObservation = {
    t,
    faces: 1,
    // Human's yaw is positive when the face turns towards the image's left, its pitch positive when
    // the face tilts down; the shared types count yaw towards the person's left and pitch up.
    ...(angle ? { yaw: -degrees(angle.yaw), pitch: -degrees(angle.pitch), roll: degrees(angle.roll) } : {}),
    ...(eyes ? { eyeOpen: Math.min(1, (ratio(m, EYES[0]) + ratio(m, EYES[1])) / 2 / OPEN_EYE_RATIO) } : {}),
    mouthOpen: Math.min(1, ratio(m, LIPS)),
    landmarks: LIVENESS_LANDMARKS.map((name) => {
      const p = m[MESH_INDEX[name]];
      return [p?.[0] ?? 0, p?.[1] ?? 0] as [number, number];
    }),
    sha256,
  };
  return { observation, box: faceApiBox(m) };
}

/** How far from the capture's median a frame must be for its extreme to be worth a descriptor (half the check's action thresholds). */
const EXTREME = { yaw: 7, pitch: 4.5, mouth: 0.09 };

/**
 * The frames the face engine describes: the most frontal, then the extremes where an action shows
 * (the farthest turned each way, the most raised, the most lowered, the widest mouth: where a
 * spliced-in performer would be), each only when it is one (a challenge asks 3 of the 6 actions, so
 * the others' "extremes" are ordinary frames), then evenly spaced ones, `count` in all; then, for
 * each of `windows` (ms after the first frame: the challenge's steps) holding none of those, its
 * middle frame.
 */
export function framesToDescribe(obs: FrameObservation[], count: number, windows: readonly (readonly [number, number])[] = []): number[] {
  const single = obs.map((o, i) => ({ o, i })).filter(({ o }) => o.faces === 1);
  const median = (xs: (number | undefined)[]) => {
    const d = xs.filter((x): x is number => x !== undefined).sort((a, b) => a - b);
    return d[Math.floor(d.length / 2)] ?? 0;
  };
  const base = { yaw: median(single.map(({ o }) => o.yaw)), pitch: median(single.map(({ o }) => o.pitch)), mouth: median(single.map(({ o }) => o.mouthOpen)) };
  /** The frame scoring highest, when its score reaches `least`. */
  const by = (score: (o: FrameObservation) => number, least = -Infinity) => {
    const best = [...single].sort((a, b) => score(b.o) - score(a.o))[0];
    return best && score(best.o) >= least ? best.i : undefined;
  };
  const picks = [
    by((o) => -Math.abs(o.yaw ?? 90) - Math.abs(o.pitch ?? 90)),
    by((o) => (o.yaw ?? -Infinity) - base.yaw, EXTREME.yaw),
    by((o) => base.yaw - (o.yaw ?? Infinity), EXTREME.yaw),
    by((o) => (o.pitch ?? -Infinity) - base.pitch, EXTREME.pitch),
    by((o) => base.pitch - (o.pitch ?? Infinity), EXTREME.pitch),
    by((o) => (o.mouthOpen ?? -Infinity) - base.mouth, EXTREME.mouth),
  ];
  for (let k = 0; k < count; k++) picks.push(single[Math.floor(((k + 0.5) * single.length) / count)]?.i);
  const chosen = [...new Set(picks.filter((i): i is number => i !== undefined))].slice(0, count);
  // Every window gets a described frame of its own (its middle one), when none of the above is in it:
  // a step the extremes do not mark (a blink) could otherwise be performed by someone else unseen.
  const t0 = obs[0]?.t ?? 0;
  const inside = (i: number, [from, to]: readonly [number, number]) => {
    const t = (obs[i]?.t ?? Number.NaN) - t0;
    return t >= from && t <= to;
  };
  for (const w of windows) {
    if (chosen.some((i) => inside(i, w))) continue;
    const middle = (w[0] + w[1]) / 2;
    const within = single.filter(({ i }) => inside(i, w)).sort((a, b) => Math.abs(a.o.t - t0 - middle) - Math.abs(b.o.t - t0 - middle))[0];
    if (within) chosen.push(within.i);
  }
  return chosen;
}

/**
 * Every DETECT_EVERY-th frame is detected afresh (at 10–13 fps, within about 0.4 s: a second person
 * entering is counted from there on, and followed after), the others follow the faces already found;
 * a frame after one without exactly one face is detected too. Every third frame cost 0.5 s more CPU
 * per challenge (19 detections instead of 11) for no change the bench could see.
 */
export const DETECT_EVERY = 5;

/** CPU milliseconds of each stage of an observation, added up over its frames (the bench prints them). */
export interface ObserveStages {
  /** Decoding and downscaling the frames, and their SHA-256. */
  decode: number;
  /** Human on the frames where its detector ran (detector, mesh, iris where asked). */
  detect: number;
  /** Human on the frames that followed the faces already found (mesh, iris where asked). */
  track: number;
  /** The face engine's descriptors. */
  describe: number;
  frames: number;
  detectedFrames: number;
  eyeFrames: number;
  describedFrames: number;
}

export interface ObserveOptions {
  /** Frames given a face-engine descriptor (OBSERVER_DESCRIBED_FRAMES by default). */
  describe?: number;
  /**
   * Where eye openness is measured (the iris model): everywhere (true, the default), nowhere (false:
   * no blink asked), or in these spans of ms after the first frame (eyeSpans in verify.ts: around
   * the blink windows, the only place the check reads it).
   */
  eyes?: boolean | readonly (readonly [number, number])[];
  /**
   * The challenge's step windows (ms after the first frame): each gets at least one described frame
   * (framesToDescribe), so that someone else performing a whole step is described.
   */
  windows?: readonly (readonly [number, number])[];
  /** Filled with the CPU time of each stage (each thread's own, added up). */
  stages?: ObserveStages;
  /** Threads to observe on: 1, or 2 (a worker thread takes part of the capture); the machine's cores, at most 2, by default. */
  threads?: number;
  /**
   * The share of the frames the worker thread takes (0.5 by default): more when this thread has
   * other work beside the observation (the liveness observer's ID portrait).
   */
  workerShare?: number;
}

/** This thread's CPU time since `since` (ms); the process's where Node cannot tell threads apart (before 22.19). */
const threadCpuUsage = (process as { threadCpuUsage?: (since?: NodeJS.CpuUsage) => NodeJS.CpuUsage }).threadCpuUsage?.bind(process);
const threadUsage = (since?: NodeJS.CpuUsage): NodeJS.CpuUsage => (threadCpuUsage ? threadCpuUsage(since) : process.cpuUsage(since));
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = threadUsage(since);
  return (used.user + used.system) / 1000;
};

/** Empty stage figures, to be filled. */
export const noStages = (): ObserveStages => ({ decode: 0, detect: 0, track: 0, describe: 0, frames: 0, detectedFrames: 0, eyeFrames: 0, describedFrames: 0 });

/** Adds `b`'s figures to `a`'s. */
export function addStages(a: ObserveStages, b: ObserveStages): void {
  for (const k of Object.keys(b) as (keyof ObserveStages)[]) a[k] += b[k];
}

/** Where a run of frames sits in its capture: the index of its first frame, and the capture's first time. */
export interface RunPlace {
  offset: number;
  t0: number;
  eyes: boolean | readonly (readonly [number, number])[];
}

/**
 * Meshes a run of consecutive frames of one capture, starting at capture index `offset`. A frame is
 * detected afresh at every DETECT_EVERY-th capture index and after a frame without exactly one face,
 * so a capture cut at such an index is meshed exactly as in one run (the two halves of a parallel
 * observation, observeFrames).
 */
export function meshRun(bytes: Uint8Array[], times: number[], place: RunPlace, stages: ObserveStages): Promise<Meshed[]> {
  const { offset, t0, eyes } = place;
  // The next frame is decoded (on the image library's threads) while this one is meshed: at most
  // two decoded frames at a time.
  const decoded = (k: number) => (k < bytes.length ? decode(bytes[k] as Uint8Array).catch(() => undefined) : Promise.resolve(undefined));
  return exclusive(async () => {
    const out: Meshed[] = [];
    let follow = false;
    let next = decoded(0);
    for (let k = 0; k < bytes.length; k++) {
      const t = times[k] ?? Number.NaN;
      let since = threadUsage();
      const sha256 = createHash('sha256').update(bytes[k] as Uint8Array).digest('hex');
      const rgb = await next;
      next = decoded(k + 1);
      stages.decode += cpuMs(since);
      stages.frames++;
      if (!rgb) {
        out.push({ observation: { t, faces: 0, sha256 } });
        follow = false;
        continue;
      }
      const detect = !follow || (offset + k) % DETECT_EVERY === 0;
      const withEyes = eyesAt(eyes, t0, t);
      since = threadUsage();
      const m = await meshFrame(rgb, t, sha256, withEyes, detect);
      stages[detect ? 'detect' : 'track'] += cpuMs(since);
      if (detect) stages.detectedFrames++;
      if (withEyes) stages.eyeFrames++;
      out.push(m);
      follow = m.observation.faces === 1;
    }
    return out;
  });
}

/** A frame to describe, and where Human found its face (face-api's box, faceApiBox). */
export interface ToDescribe {
  bytes: Uint8Array;
  box?: [number, number, number, number];
}

/** The service's face engine's descriptor of each frame, at the face Human found (its detector is not run again). */
export async function describeFrames(items: ToDescribe[], stages: ObserveStages): Promise<(number[] | undefined)[]> {
  const engine: FaceEngine = await faces();
  const since = threadUsage();
  const out: (number[] | undefined)[] = [];
  for (const { bytes, box } of items) {
    const rgb = await decode(bytes);
    stages.describedFrames++;
    if (engine.describeAt && box) {
      out.push(await engine.describeAt(rgb, box));
    } else {
      const side = faceSide(await engine.faces(rgb));
      out.push(side.face && side.count === 1 ? side.face.embedding : undefined);
    }
  }
  stages.describe += cpuMs(since);
  return out;
}

/**
 * What a frame costs to mesh, relative to a followed frame without eyes (CPU per frame measured by
 * `npm run bench:liveness`: about 16 ms followed, 57 ms detected, about 10 ms more with the iris model).
 */
const FRAME_COST = { followed: 1, detected: 3.5, eyes: 0.6 } as const;

/** Whether eyes are read at capture time `t` (ms), with the capture's first frame at `t0`. */
const eyesAt = (eyes: RunPlace['eyes'], t0: number, t: number) => (typeof eyes === 'boolean' ? eyes : eyes.some(([from, to]) => t - t0 >= from && t - t0 <= to));

/**
 * Where a capture of `n` frames is cut for two threads, the worker taking about `share` of the
 * work: at a DETECT_EVERY-th index (meshRun: both parts are then meshed as one run would mesh them),
 * each part at least DETECT_EVERY frames; `n` (no cut) when too short to be worth a second thread.
 * `eyesAt(i)` says which frames the iris model reads: they cost more (FRAME_COST), and a challenge's
 * blinks put them in one part, so the cut weighs them.
 */
export function cutFor(n: number, share = 0.5, eyesAtFrame: (i: number) => boolean = () => false): number {
  if (n < 4 * DETECT_EVERY) return n;
  const cost = (i: number) => (i % DETECT_EVERY === 0 ? FRAME_COST.detected : FRAME_COST.followed) + (eyesAtFrame(i) ? FRAME_COST.eyes : 0);
  const before: number[] = [0];
  for (let i = 0; i < n; i++) before.push((before[i] as number) + cost(i));
  const target = (1 - share) * (before[n] as number);
  let best = DETECT_EVERY;
  for (let cut = DETECT_EVERY; cut <= n - DETECT_EVERY; cut += DETECT_EVERY) {
    if (Math.abs((before[cut] as number) - target) < Math.abs((before[best] as number) - target)) best = cut;
  }
  return best;
}

/**
 * Observes a capture: each frame's bytes (JPEG, PNG or WebP) with its capture time in ms. Frames the
 * image decoder refuses count as frames without a face. Describes at most `options.describe` frames
 * with the service's face engine, at the face Human found (its detector is not run again).
 *
 * With a second core (`options.threads`, by default the machine's, at most 2), the capture is cut in
 * two (cutFor): a worker thread with its own models (face-observer-thread.ts) meshes the later part
 * (`options.workerShare` of the frames) and describes half the chosen frames, for the same
 * observations in a little over half the time. When the worker cannot be had or fails, its part is
 * observed here.
 */
export async function observeFrames(bytes: Uint8Array[], times: number[], options: ObserveOptions = {}): Promise<FrameObservation[]> {
  const { describe = OBSERVER_DESCRIBED_FRAMES, eyes = true } = options;
  const stages: ObserveStages = options.stages ?? noStages();
  const place: RunPlace = { offset: 0, t0: times[0] ?? 0, eyes };
  const threads = options.threads ?? Math.min(2, availableParallelism());
  const cut = threads >= 2 ? cutFor(bytes.length, options.workerShare, (i) => eyesAt(eyes, place.t0, times[i] ?? Number.NaN)) : bytes.length;
  const helper = cut < bytes.length ? await observerThread().catch(() => undefined) : undefined;
  const second = (): Promise<Meshed[]> => {
    const run = [bytes.slice(cut), times.slice(cut), { ...place, offset: cut }] as const;
    const here = () => meshRun(...run, stages);
    return helper ? helper.mesh(...run).then(({ meshed, stages: s }) => (addStages(stages, s), meshed), here) : here();
  };
  const [first, rest] = await Promise.all([meshRun(bytes.slice(0, cut), times.slice(0, cut), place, stages), cut < bytes.length ? second() : Promise.resolve([])]);
  const meshed = [...first, ...rest];
  const out = meshed.map((m) => m.observation);
  const chosen = framesToDescribe(out, describe, options.windows);
  const items = chosen.map((i): ToDescribe => ({ bytes: bytes[i] as Uint8Array, ...(meshed[i]?.box && { box: meshed[i].box }) }));
  const half = helper ? Math.floor(items.length / 2) : 0;
  const there = async (): Promise<(number[] | undefined)[]> => {
    if (!helper || half === 0) return [];
    const here = () => describeFrames(items.slice(0, half), stages);
    return helper.describe(items.slice(0, half)).then(({ descriptors, stages: s }) => (addStages(stages, s), descriptors), here);
  };
  const [theirs, ours] = await Promise.all([there(), describeFrames(items.slice(half), stages)]);
  [...theirs, ...ours].forEach((descriptor, k) => {
    const o = out[chosen[k] as number] as FrameObservation;
    if (descriptor) o.descriptor = descriptor;
  });
  return out;
}
