import type { FoundFace } from './face-engines';

/** The engine the service compares faces with, chosen by `npm run bench:faces` (bench/faces.json). */
export const FACE_ENGINE = 'face-api:dlib-resnet128:euclidean';

/** A face narrower than this (pixels, in the picture as the engine reads it) is too small to compare; mirrored by config/rules.json. */
export const MIN_FACE_PIXELS = 40;
/** Another face at least this fraction of the largest face's width counts as a second person; smaller ones are background. */
export const SEVERAL_FACES_RATIO = 0.5;

/** Distances (Euclidean, 128-D dlib descriptors) scored 100 and 0; dlib's customary 0.6 scores 50. */
export const SCORE_FULL_DISTANCE = 0.3;
export const SCORE_ZERO_DISTANCE = 0.9;

/**
 * The calibrated 0–100 score of an engine distance d: 100 × (0.9 − d) / 0.6, rounded and clamped to
 * 0..100: 100 at d ≤ 0.3 (closer than most photographs of one person), 50 at dlib's usual 0.6
 * decision distance, 0 at d ≥ 0.9 (farther than most pairs of strangers). The mapping is fixed; the
 * thresholds in config/rules.json are the scores at which `npm run bench:faces` measured the chosen
 * false-accept and false-reject rates (README, Offline extraction / face match).
 */
export function scoreFromDistance(distance: number): number {
  if (!Number.isFinite(distance)) return 0;
  const score = (100 * (SCORE_ZERO_DISTANCE - distance)) / (SCORE_ZERO_DISTANCE - SCORE_FULL_DISTANCE);
  return Math.round(Math.min(100, Math.max(0, score)));
}

/** One side of a comparison: how many people it shows and the largest face. */
export interface FaceSide {
  count: number;
  face?: FoundFace;
}

export function faceSide(faces: FoundFace[]): FaceSide {
  const sorted = faces.filter((f) => f.embedding.length > 0).sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  const face = sorted[0];
  if (!face) return { count: 0 };
  return { count: sorted.filter((f) => f.box[2] >= SEVERAL_FACES_RATIO * face.box[2]).length, face };
}
