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
