/**
 * Plane-to-plane geometry for the flatness check: a picture (printed, on a screen) turned, tilted,
 * slid or seen in perspective moves every point of it by one homography, whatever the motion; a head
 * does not, because its nose stands out of the plane of its outline. Pure arithmetic, no library.
 */

export type Point = [number, number];
/** Row-major 3×3 matrix, h[8] = 1. */
export type Homography = number[];

/** Hartley normalisation: centroid to the origin, mean distance √2. Returns the transform [s, tx, ty] (x' = s·x + tx). */
function normaliser(points: Point[]): [number, number, number] {
  const n = points.length;
  const cx = points.reduce((s, p) => s + p[0], 0) / n;
  const cy = points.reduce((s, p) => s + p[1], 0) / n;
  const mean = points.reduce((s, p) => s + Math.hypot(p[0] - cx, p[1] - cy), 0) / n;
  const s = mean > 0 ? Math.SQRT2 / mean : 1;
  return [s, -s * cx, -s * cy];
}

/** Solves A·x = b (n×n) by Gaussian elimination with partial pivoting; undefined when singular. */
export function solveLinear(a: number[][], b: number[]): number[] | undefined {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]?.[col] ?? 0) > Math.abs(m[pivot]?.[col] ?? 0)) pivot = r;
    const p = m[pivot];
    if (!p || Math.abs(p[col] ?? 0) < 1e-12) return undefined;
    [m[col], m[pivot]] = [p, m[col] as number[]];
    for (let r = 0; r < n; r++) {
      const row = m[r] as number[];
      if (r === col) continue;
      const f = (row[col] ?? 0) / (p[col] ?? 1);
      if (f === 0) continue;
      for (let c = col; c <= n; c++) row[c] = (row[c] ?? 0) - f * (p[c] ?? 0);
    }
  }
  return m.map((row, i) => (row[n] ?? 0) / (row[i] ?? 1));
}

/** Applies h to a point (undefined h[8] treated as 1). */
export function applyHomography(h: Homography, [x, y]: Point): Point {
  const w = (h[6] ?? 0) * x + (h[7] ?? 0) * y + (h[8] ?? 1);
  return [((h[0] ?? 0) * x + (h[1] ?? 0) * y + (h[2] ?? 0)) / w, ((h[3] ?? 0) * x + (h[4] ?? 0) * y + (h[5] ?? 0)) / w];
}

/**
 * The homography taking `from` to `to` in the least-squares sense (normalised DLT with h33 = 1, over
 * all point pairs; at least 4). Undefined when the points are degenerate (collinear, coincident).
 */
export function fitHomography(from: Point[], to: Point[]): Homography | undefined {
  if (from.length < 4 || from.length !== to.length) return undefined;
  const [sa, ax, ay] = normaliser(from);
  const [sb, bx, by] = normaliser(to);
  // Normal equations of the 2n × 8 DLT system.
  const ata = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const atb = new Array<number>(8).fill(0);
  for (let i = 0; i < from.length; i++) {
    const x = sa * (from[i]?.[0] ?? 0) + ax;
    const y = sa * (from[i]?.[1] ?? 0) + ay;
    const u = sb * (to[i]?.[0] ?? 0) + bx;
    const v = sb * (to[i]?.[1] ?? 0) + by;
    const rows: [number[], number][] = [
      [[x, y, 1, 0, 0, 0, -u * x, -u * y], u],
      [[0, 0, 0, x, y, 1, -v * x, -v * y], v],
    ];
    for (const [r, rhs] of rows) {
      for (let j = 0; j < 8; j++) {
        atb[j] = (atb[j] ?? 0) + (r[j] ?? 0) * rhs;
        const row = ata[j] as number[];
        for (let k = 0; k < 8; k++) row[k] = (row[k] ?? 0) + (r[j] ?? 0) * (r[k] ?? 0);
      }
    }
  }
  const h = solveLinear(ata, atb);
  if (!h || h.some((x) => !Number.isFinite(x))) return undefined;
  // Undo the normalisations: H = Tb⁻¹ · Hn · Ta.
  const hn = [...h, 1];
  const ta = [sa, 0, ax, 0, sa, ay, 0, 0, 1];
  const tbInv = [1 / sb, 0, -bx / sb, 0, 1 / sb, -by / sb, 0, 0, 1];
  const full = multiply(tbInv, multiply(hn, ta));
  const last = full[8] ?? 1;
  return Math.abs(last) < 1e-12 ? undefined : full.map((x) => x / last);
}

function multiply(a: number[], b: number[]): number[] {
  const out = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) out[r * 3 + c] = (out[r * 3 + c] ?? 0) + (a[r * 3 + k] ?? 0) * (b[k * 3 + c] ?? 0);
  return out;
}

/** Root mean square distance of the points from their centroid: the size the residuals are divided by. */
export function spread(points: Point[]): number {
  const n = points.length || 1;
  const cx = points.reduce((s, p) => s + p[0], 0) / n;
  const cy = points.reduce((s, p) => s + p[1], 0) / n;
  return Math.sqrt(points.reduce((s, p) => s + (p[0] - cx) ** 2 + (p[1] - cy) ** 2, 0) / n);
}

/**
 * How far `to` is from being a homography of `from`: the root mean square distance between each `to`
 * point and the best-fitting homography's image of its `from` point, divided by the spread of `to`
 * (so that it does not depend on how large the face is in the frame). Near 0 for a picture moved in
 * any way; larger for a 3-D object turning. Infinity when no homography can be fitted.
 */
export function homographyResidual(from: Point[], to: Point[]): { residual: number; perPoint: number[] } {
  const h = fitHomography(from, to);
  const size = spread(to);
  if (!h || size === 0) return { residual: Number.POSITIVE_INFINITY, perPoint: [] };
  const perPoint = from.map((p, i) => {
    const [x, y] = applyHomography(h, p);
    const q = to[i] as Point;
    return Math.hypot(x - q[0], y - q[1]) / size;
  });
  return { residual: Math.sqrt(perPoint.reduce((s, d) => s + d * d, 0) / perPoint.length), perPoint };
}
