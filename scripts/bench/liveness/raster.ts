/**
 * A small software rasteriser for the liveness bench: textured triangles with a depth buffer, so
 * that a face mesh turned in 3-D hides its far side and a printed card shows only its front.
 * Affine texture mapping per triangle (the triangles are small), bilinear sampling.
 */
import type { Rgb } from '../../../src/adapters/offline/face-engines';

export interface Canvas {
  data: Buffer;
  width: number;
  height: number;
  depth: Float32Array;
}

export function canvas(width: number, height: number, background?: Rgb): Canvas {
  const data = background ? Buffer.from(background.data) : Buffer.alloc(width * height * 3);
  return { data, width, height, depth: new Float32Array(width * height).fill(Number.NEGATIVE_INFINITY) };
}

/** A vertex on screen: x, y in pixels, z towards the viewer (larger hides smaller). */
export type ScreenPoint = [number, number, number];
export type TexPoint = [number, number];

function sample(src: Rgb, u: number, v: number, out: number[]): void {
  const x = Math.min(src.width - 1.001, Math.max(0, u));
  const y = Math.min(src.height - 1.001, Math.max(0, v));
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const i00 = (y0 * src.width + x0) * 3;
  const i10 = i00 + 3;
  const i01 = i00 + src.width * 3;
  const i11 = i01 + 3;
  for (let c = 0; c < 3; c++) {
    const d = src.data;
    out[c] = (1 - fy) * ((1 - fx) * (d[i00 + c] ?? 0) + fx * (d[i10 + c] ?? 0)) + fy * ((1 - fx) * (d[i01 + c] ?? 0) + fx * (d[i11 + c] ?? 0));
  }
}

/** Draws one triangle, textured from `src` (or filled with `colour`), where it is nearer than what is drawn. */
export function triangle(c: Canvas, p: [ScreenPoint, ScreenPoint, ScreenPoint], tex: [TexPoint, TexPoint, TexPoint] | undefined, src: Rgb | undefined, colour?: [number, number, number]): void {
  const [a, b, d] = p;
  const area = (b[0] - a[0]) * (d[1] - a[1]) - (d[0] - a[0]) * (b[1] - a[1]);
  if (Math.abs(area) < 1e-6) return;
  const minX = Math.max(0, Math.floor(Math.min(a[0], b[0], d[0])));
  const maxX = Math.min(c.width - 1, Math.ceil(Math.max(a[0], b[0], d[0])));
  const minY = Math.max(0, Math.floor(Math.min(a[1], b[1], d[1])));
  const maxY = Math.min(c.height - 1, Math.ceil(Math.max(a[1], b[1], d[1])));
  const rgb = [0, 0, 0];
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const w0 = ((b[0] - px) * (d[1] - py) - (d[0] - px) * (b[1] - py)) / area;
      const w1 = ((d[0] - px) * (a[1] - py) - (a[0] - px) * (d[1] - py)) / area;
      const w2 = 1 - w0 - w1;
      if (w0 < -1e-9 || w1 < -1e-9 || w2 < -1e-9) continue;
      const z = w0 * a[2] + w1 * b[2] + w2 * d[2];
      const k = y * c.width + x;
      if (z <= (c.depth[k] ?? 0)) continue;
      c.depth[k] = z;
      if (tex && src) {
        sample(src, w0 * tex[0][0] + w1 * tex[1][0] + w2 * tex[2][0], w0 * tex[0][1] + w1 * tex[1][1] + w2 * tex[2][1], rgb);
      } else if (colour) {
        rgb[0] = colour[0];
        rgb[1] = colour[1];
        rgb[2] = colour[2];
      }
      c.data[k * 3] = rgb[0] ?? 0;
      c.data[k * 3 + 1] = rgb[1] ?? 0;
      c.data[k * 3 + 2] = rgb[2] ?? 0;
    }
  }
}

/**
 * Rotation of a point about the origin (degrees; y down, z towards the viewer): yaw about the vertical
 * axis (+ turns the front towards image right, the person's left), then pitch (+ turns it up), then roll.
 */
export function rotate([x, y, z]: [number, number, number], yaw: number, pitch: number, roll = 0): [number, number, number] {
  const r = Math.PI / 180;
  const x1 = x * Math.cos(yaw * r) + z * Math.sin(yaw * r);
  const z1 = -x * Math.sin(yaw * r) + z * Math.cos(yaw * r);
  const y2 = y * Math.cos(pitch * r) - z1 * Math.sin(pitch * r);
  const z2 = y * Math.sin(pitch * r) + z1 * Math.cos(pitch * r);
  return [x1 * Math.cos(roll * r) - y2 * Math.sin(roll * r), x1 * Math.sin(roll * r) + y2 * Math.cos(roll * r), z2];
}
