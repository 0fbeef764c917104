import * as v from 'valibot';

/**
 * Thresholds of the validation rules (config/rules.json), similarity ratios in 0..1, selfie similarity
 * in 0..100. For the selfie: at or above `pass` the faces match; below `review` they are clearly
 * different people; in between a person looks (Double Check). `min_face_pixels` is the narrowest face,
 * in pixels, that is compared at all. The values come from `npm run bench:faces` (README).
 */
export const RuleThresholdsSchema = v.strictObject({
  name: v.strictObject({ pass: v.number(), review: v.number() }),
  address: v.strictObject({ pass: v.number(), review: v.number() }),
  min_confidence: v.number(),
  selfie_similarity: v.strictObject({ pass: v.number(), review: v.number(), min_face_pixels: v.number() }),
  /** Lowest antispoof and liveness scores (0..1) of a selfie that pass; below → review (src/domain/presentation.ts). */
  selfie_presentation: v.strictObject({ antispoof: v.pipe(v.number(), v.minValue(0), v.maxValue(1)), liveness: v.pipe(v.number(), v.minValue(0), v.maxValue(1)) }),
});
export type RuleThresholds = v.InferOutput<typeof RuleThresholdsSchema>;
