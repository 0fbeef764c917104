/**
 * Reliability of the extractor's confidences: every reported field (non-empty value) of the bench
 * is one observation (confidence, correct); observations are grouped by confidence bucket and the
 * observed accuracy of each bucket is compared with the confidence it claims.
 */

/** Lower edges of the buckets; a bucket runs to the next edge (the last one includes 1). */
export const EDGES = [0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99] as const;

export interface Observation {
  confidence: number;
  correct: boolean;
}

export interface Bucket {
  /** `[0.6, 0.7)` style label. */
  bucket: string;
  from: number;
  count: number;
  correct: number;
  /** Observed accuracy in percent; null when the bucket is empty. */
  accuracy: number | null;
}

const label = (i: number): string => {
  const from = EDGES[i] as number;
  const to = EDGES[i + 1];
  return to === undefined ? `[${from}, 1]` : `[${from}, ${to})`;
};

export function bucketsOf(observations: Observation[]): Bucket[] {
  const rows = EDGES.map((from, i) => ({ bucket: label(i), from, count: 0, correct: 0, accuracy: null as number | null }));
  for (const o of observations) {
    let i = EDGES.length - 1;
    while (i > 0 && o.confidence < (EDGES[i] as number)) i--;
    const row = rows[i] as Bucket;
    row.count++;
    if (o.correct) row.correct++;
  }
  for (const r of rows) r.accuracy = r.count ? Math.round((1000 * r.correct) / r.count) / 10 : null;
  return rows;
}

/** Adds bucket tables (same edges) count by count: the combined table of several sets. */
export function addBuckets(...tables: Bucket[][]): Bucket[] {
  const rows = EDGES.map((from, i) => ({ bucket: label(i), from, count: 0, correct: 0, accuracy: null as number | null }));
  for (const t of tables) {
    for (const b of t) {
      const row = rows.find((r) => r.from === b.from);
      if (row) {
        row.count += b.count;
        row.correct += b.correct;
      }
    }
  }
  for (const r of rows) r.accuracy = r.count ? Math.round((1000 * r.correct) / r.count) / 10 : null;
  return rows;
}

/**
 * The lowest bucket edge t such that every field reported with confidence ≥ t was correct (no
 * trusted error at all), with the accuracy at and above each edge, so that the README can state
 * which trust threshold the measurements support. Undefined when even the top bucket had an error.
 */
export function supportedThreshold(table: Bucket[]): { threshold: number | undefined; above: { from: number; count: number; accuracy: number | null }[] } {
  const above = table.map((b) => {
    const rest = table.filter((r) => r.from >= b.from);
    const count = rest.reduce((s, r) => s + r.count, 0);
    const correct = rest.reduce((s, r) => s + r.correct, 0);
    return { from: b.from, count, accuracy: count ? Math.round((1000 * correct) / count) / 10 : null };
  });
  const threshold = above.find((a) => a.count === 0 || a.accuracy === 100)?.from;
  return { threshold, above };
}

export function printBuckets(title: string, table: Bucket[]): void {
  console.log(title);
  console.log('  confidence        fields  correct  accuracy');
  for (const b of table) console.log(`  ${b.bucket.padEnd(16)} ${String(b.count).padStart(7)}  ${String(b.correct).padStart(7)}  ${b.accuracy === null ? '     —' : `${String(b.accuracy).padStart(6)}%`}`);
}
