/**
 * The one-sided 95 % lower bound (Wilson score) of a refusal rate: a class meets its target only when
 * this bound does, so 5 of 5 refused shows nothing (≥ 35 %), and none failing needs about 270 tries.
 */
export function refusedLowerBound(refused: number, tries: number, z = 1.645): number {
  if (tries === 0) return 0;
  const p = refused / tries;
  const z2 = z * z;
  return (p + z2 / (2 * tries) - z * Math.sqrt((p * (1 - p)) / tries + z2 / (4 * tries * tries))) / (1 + z2 / tries);
}

/** The one-sided 95 % upper bound (Wilson score) of a rate seen `hits` times in `tries`. */
export function upperBound(hits: number, tries: number, z = 1.645): number {
  if (tries === 0) return 1;
  return 1 - refusedLowerBound(tries - hits, tries, z);
}

/**
 * The replay class's refusal rate, bounded rather than sampled: a recording replayed against a fresh
 * draw passes only when the draw repeats its sequence (probability 1 / `sequences`, the draw being
 * uniform; counted as a pass whatever the windows) or when it is another sequence the recording
 * satisfies anyway (at most the upper bound of what `other` measured). Sampling the replay rate
 * directly cannot show 99 %: the true rate sits near 1 − 1/114.
 */
export function replayRefusedBound(other: { judged: number; passed: number }, sequences: number): number {
  const same = 1 / sequences;
  return 1 - same - (1 - same) * upperBound(other.passed, other.judged);
}
