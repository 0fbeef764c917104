import type { FoundFace } from './face-engines';

/** The engine the service compares faces with, chosen by `npm run bench:faces` (bench/faces.json). */
export const FACE_ENGINE = 'face-api:dlib-resnet128:euclidean';

/** A face narrower than this (pixels, in the picture as the engine reads it) is too small to compare; mirrored by config/rules.json. */
export const MIN_FACE_PIXELS = 40;
/** Another face at least this fraction of the largest face's width counts as a second person; smaller ones are background. */
export const SEVERAL_FACES_RATIO = 0.5;

/** Distance at which the score is 0 and the slope of the mapping (see scoreFromDistance). */
export const SCORE_ZERO_DISTANCE = 1;

/**
 * The calibrated 0–100 score of an engine distance: score = round(100 × (1 − d / D)), clamped to
 * 0..100, with D = SCORE_ZERO_DISTANCE. A fixed, monotone mapping of the engine's Euclidean distance;
 * the thresholds in config/rules.json are this mapping applied to the distances at which the bench
 * measured the chosen false-accept and false-reject rates (README, Offline extraction / face match).
 */
export function scoreFromDistance(distance: number): number {
  if (!Number.isFinite(distance)) return 0;
  return Math.round(100 * Math.min(1, Math.max(0, 1 - distance / SCORE_ZERO_DISTANCE)));
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
