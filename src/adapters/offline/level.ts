/**
 * Where a text line's band lies when its square is levelled, and the smaller part of the square that
 * gives the band's pixels exactly.
 *
 * sharp's `rotate(θ)` by an angle that is not a multiple of 90° is libvips' affine transform with the
 * matrix [[cos θ, -sin θ], [sin θ, cos θ]] and bilinear interpolation. Its output is the bounding box of
 * the four transformed corners, each side rounded to the nearest integer, and its offsets (odx, ody)
 * move the content inside that box without moving the box. So the same transform on a part of the
 * square, with offsets that bring that part's first pixel into the square's phase, gives the same
 * pixels, shifted by a whole number of pixels. A line's square is one line length on each side, and
 * its band is about a tenth of that, so only about a tenth of the square needs to be levelled.
 * `test/unit/adapters/offline-level.test.ts` compares the bytes with those of the whole square.
 */

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** `r` in whole pixels, inside a width × height image, at least one pixel each way. */
export function clampRegion(r: Rect, width: number, height: number): Rect {
  const left = Math.max(0, Math.min(width - 1, Math.round(r.left)));
  const top = Math.max(0, Math.min(height - 1, Math.round(r.top)));
  return { left, top, width: Math.max(1, Math.min(width - left, Math.round(r.width))), height: Math.max(1, Math.min(height - top, Math.round(r.height))) };
}

/** A text line as cut from a page: its centre, length and height, and its angle in degrees (clockwise). */
export interface Line {
  centerX: number;
  centerY: number;
  length: number;
  height: number;
  angle: number;
}

/**
 * The square cut around a line (one line length on each side, inside the page) and the line's band in
 * that square levelled (the square turned by -angle), where the line's centre lands.
 */
export function lineSquare(l: Line, width: number, height: number): { square: Rect; band: Rect } {
  const side = Math.ceil(Math.max(l.length, l.height) + 4);
  const square = clampRegion({ left: l.centerX - side / 2, top: l.centerY - side / 2, width: side, height: side }, width, height);
  const rad = (l.angle * Math.PI) / 180;
  const rotatedW = Math.floor(square.width * Math.abs(Math.cos(rad)) + square.height * Math.abs(Math.sin(rad)));
  const rotatedH = Math.floor(square.width * Math.abs(Math.sin(rad)) + square.height * Math.abs(Math.cos(rad)));
  const dx = l.centerX - (square.left + square.width / 2);
  const dy = l.centerY - (square.top + square.height / 2);
  const cx = rotatedW / 2 + dx * Math.cos(-rad) - dy * Math.sin(-rad);
  const cy = rotatedH / 2 + dx * Math.sin(-rad) + dy * Math.cos(-rad);
  return { square, band: clampRegion({ left: cx - l.length / 2, top: cy - l.height / 2, width: l.length, height: l.height }, rotatedW, rotatedH) };
}

/** The part of the square to level, the affine's offsets, and the band's place in the levelled part. */
export interface LevelWindow {
  /** In the square's pixels. */
  part: Rect;
  matrix: [[number, number], [number, number]];
  odx: number;
  ody: number;
  /** The band, in the levelled part's pixels. */
  cut: Rect;
}

/** Pixels kept around the band's preimage: bilinear reads one neighbour; three keep it far from the part's edges. */
const MARGIN = 3;

/** The bounding box of a w × h rectangle's corners under `m`, rounded as libvips rounds it (to nearest). */
function outputArea(m: (x: number, y: number) => [number, number], w: number, h: number): Rect {
  const corners = [m(0, 0), m(w, 0), m(0, h), m(w, h)];
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return { left: Math.round(left), top: Math.round(top), width: Math.round(right - left), height: Math.round(bottom - top) };
}

/**
 * The part of a square turned by `angle` that gives its band `cut` (in the turned square's pixels,
 * levelledSize) whole. Undefined: the whole square is to be turned (a multiple of 90°, which sharp
 * turns without resampling, or a band reaching the square's transformed edges).
 */
export function levelWindow(square: { width: number; height: number }, angle: number, cut: Rect): LevelWindow | undefined {
  if (angle % 90 === 0) return undefined;
  const rad = (angle * Math.PI) / 180;
  const c = Math.cos(rad);
  const s = Math.sin(rad);
  const forward = (x: number, y: number): [number, number] => [c * x - s * y, s * x + c * y];
  const inverse = (x: number, y: number): [number, number] => [c * x + s * y, -s * x + c * y];
  const whole = outputArea(forward, square.width, square.height);
  // The band's corners, one pixel out, back in the square.
  const back = [
    [cut.left - 1, cut.top - 1],
    [cut.left + cut.width + 1, cut.top - 1],
    [cut.left - 1, cut.top + cut.height + 1],
    [cut.left + cut.width + 1, cut.top + cut.height + 1],
  ].map(([x, y]) => inverse((x as number) + whole.left, (y as number) + whole.top));
  const left = Math.max(0, Math.floor(Math.min(...back.map((p) => p[0]))) - MARGIN);
  const top = Math.max(0, Math.floor(Math.min(...back.map((p) => p[1]))) - MARGIN);
  const right = Math.min(square.width, Math.ceil(Math.max(...back.map((p) => p[0]))) + MARGIN);
  const bottom = Math.min(square.height, Math.ceil(Math.max(...back.map((p) => p[1]))) + MARGIN);
  if (right - left < 2 || bottom - top < 2) return undefined;
  const part = { left, top, width: right - left, height: bottom - top };
  // The part's first pixel lands at (px, py) of the whole square's transform; its own transform puts it
  // at its own area's origin, so the fraction is given as the output offset and the rest is a whole shift.
  const [px, py] = forward(left, top);
  const fx = Math.floor(px - whole.left);
  const fy = Math.floor(py - whole.top);
  const own = outputArea(forward, part.width, part.height);
  const shiftX = own.left + fx;
  const shiftY = own.top + fy;
  const inPart = { left: cut.left - shiftX, top: cut.top - shiftY, width: cut.width, height: cut.height };
  // Every pixel of the band must lie in the part's levelled area; a band over the square's edges is levelled whole.
  if (inPart.left < 0 || inPart.top < 0 || inPart.left + inPart.width > own.width || inPart.top + inPart.height > own.height) return undefined;
  return { part, matrix: [[c, -s], [s, c]], odx: px - whole.left - fx, ody: py - whole.top - fy, cut: inPart };
}

/** The size `rotate(angle)` gives a square of this size (not for multiples of 90°). */
export function levelledSize(square: { width: number; height: number }, angle: number): { width: number; height: number } {
  const rad = (angle * Math.PI) / 180;
  const c = Math.cos(rad);
  const s = Math.sin(rad);
  const { width, height } = outputArea((x, y) => [c * x - s * y, s * x + c * y], square.width, square.height);
  return { width, height };
}
