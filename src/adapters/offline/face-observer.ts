import { createHash } from 'node:crypto';
import { LIVENESS_LANDMARKS, type LivenessLandmark } from '../../domain/liveness/landmarks';
import type { FrameObservation } from '../../domain/liveness/types';
import { faces, sharpModule } from './engines';
import { type FaceEngine, loadHuman, type Rgb } from './face-engines';
import { faceSide, SEVERAL_FACES_RATIO } from './face-match';

/**
 * What the face models see in each frame of a liveness capture (FrameObservation): Human's face
 * detector and 468-point mesh on every frame (face count, head pose, eye and mouth openness, a fixed
 * landmark subset), and the service's face engine (face-api, face-match.ts) on a few chosen frames for
 * the same-person and portrait checks. Frames are decoded one at a time and downscaled, so memory
 * stays bounded whatever the burst; models load once per process (engines.ts for face-api, here for
 * Human, which shares face-api's tfjs WebAssembly backend).
 */

/** Longest side a frame is read at: the mesh model reads a 192-pixel face crop, so more is wasted. */
export const OBSERVER_MAX_SIDE = 480;
/** Largest frame accepted before decoding (pixels), against decompression bombs. */
export const OBSERVER_MAX_PIXELS = 4_000_000;
/**
 * Frames given a face-engine descriptor (its detector and 128-D network cost about 0.4 s of CPU each):
 * the most frontal one and one at each extreme where an action shows (framesToDescribe).
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
 * Every frame judged on its own: no result cached from the previous frame, no face skipped. The iris
 * model refines the eyelids (without it the mesh barely closes its eyes on a blink); it costs about a
 * third of a frame's time, so it runs only when eyes are asked for.
 */
const perFrame = (eyes: boolean) => ({
  cacheSensitivity: 0,
  face: { detector: { skipFrames: 0, skipTime: 0, maxDetected: 5 }, mesh: { enabled: true }, iris: { enabled: eyes }, description: { enabled: false }, emotion: { enabled: false } },
});

let human: Promise<Human> | undefined;
/** Human's detector and mesh, loaded after the face engine so that both run on the one tfjs backend. */
function humanModels(): Promise<Human> {
  human ??= faces()
    .then(() => loadHuman())
    .then((h) => h.instance as unknown as Human)
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

/** The faces Human finds in a picture, each with its 468-point mesh (x, y in pixels; z grows away from the camera). */
export async function meshFaces(rgb: Rgb, eyes = true): Promise<HumanFace[]> {
  const h = await humanModels();
  const tensor = h.tf.tensor(new Int32Array(rgb.data), [1, rgb.height, rgb.width, 3], 'int32');
  try {
    return (await h.detect(tensor, perFrame(eyes))).face.filter((f) => f.mesh.length >= 468);
  } finally {
    h.tf.dispose(tensor);
  }
}

/** The mesh's triangles (index triples, MediaPipe's), for the bench that animates a photograph. */
export async function meshTriangles(): Promise<number[]> {
  return (await humanModels()).faceTriangulation;
}

/** One frame through Human: the largest face's pose, openness and landmarks, and how many people. */
async function meshFrame(rgb: Rgb, t: number, sha256: string, eyes: boolean): Promise<FrameObservation> {
  const found = await meshFaces(rgb, eyes);
  const largest = [...found].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
  const count = largest ? found.filter((f) => f.box[2] >= SEVERAL_FACES_RATIO * largest.box[2]).length : 0;
  if (!largest || count !== 1) return { t, faces: count, sha256 };
  const m = largest.mesh;
  const angle = largest.rotation?.angle;
  return {
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
}

/** How far from the capture's median a frame must be for its extreme to be worth a descriptor (half the check's action thresholds). */
const EXTREME = { yaw: 7, pitch: 4.5, mouth: 0.09 };

/**
 * The frames the face engine describes: the most frontal, then the extremes where an action shows
 * (the farthest turned each way, the most raised, the most lowered, the widest mouth: where a
 * spliced-in performer would be), each only when it is one (a challenge asks 3 of the 6 actions, so
 * the others' "extremes" are ordinary frames), then evenly spaced ones.
 */
export function framesToDescribe(obs: FrameObservation[], count: number): number[] {
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
  return [...new Set(picks.filter((i): i is number => i !== undefined))].slice(0, count);
}

export interface ObserveOptions {
  /** Frames given a face-engine descriptor (OBSERVER_DESCRIBED_FRAMES by default). */
  describe?: number;
  /** Whether eye openness is measured (the iris model): needed only when the challenge asks for a blink. Default true. */
  eyes?: boolean;
}

/**
 * Observes a capture: each frame's bytes (JPEG, PNG or WebP) with its capture time in ms. Frames the
 * image decoder refuses count as frames without a face. Describes at most `options.describe` frames
 * with the service's face engine.
 */
export async function observeFrames(bytes: Uint8Array[], times: number[], options: ObserveOptions = {}): Promise<FrameObservation[]> {
  const { describe = OBSERVER_DESCRIBED_FRAMES, eyes = true } = options;
  const out: FrameObservation[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const frame = bytes[i] as Uint8Array;
    const t = times[i] ?? Number.NaN;
    const sha256 = createHash('sha256').update(frame).digest('hex');
    const rgb = await decode(frame).catch(() => undefined);
    out.push(rgb ? await meshFrame(rgb, t, sha256, eyes) : { t, faces: 0, sha256 });
  }
  const engine: FaceEngine = await faces();
  for (const i of framesToDescribe(out, describe)) {
    const rgb = await decode(bytes[i] as Uint8Array);
    const side = faceSide(await engine.faces(rgb));
    const o = out[i] as FrameObservation;
    if (side.face && side.count === 1) o.descriptor = side.face.embedding;
  }
  return out;
}
