/**
 * What the liveness bench films: a SYNTHETIC head (one photograph's face mesh, lifted to 3-D with
 * the mesh's own depth, turned, nodding, blinking and opening its mouth, re-projected in perspective
 * and textured per triangle), and the attacks: the still photograph, the photograph printed on a card
 * held up (turned, tilted, slid, bent), and the photograph on a screen (moiré, glare, refresh bands).
 */
import type Sharp from 'sharp';
import type { Rgb } from '../../../src/adapters/offline/face-engines';
import { type Canvas, canvas, rotate, type ScreenPoint, type TexPoint, triangle } from './raster';

export const FRAME_WIDTH = 360;
export const FRAME_HEIGHT = 480;

/** MediaPipe face-mesh indices: the face oval (clockwise from the forehead), eyelids, lips. */
const FACE_OVAL = [10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109];
const EYELIDS = [
  { upper: [246, 161, 160, 159, 158, 157, 173], lower: [7, 163, 144, 145, 153, 154, 155], above: [247, 30, 29, 27, 28, 56, 190] },
  { upper: [466, 388, 387, 386, 385, 384, 398], lower: [249, 390, 373, 374, 380, 381, 382], above: [467, 260, 259, 257, 258, 286, 414] },
];
const UPPER_INNER_LIP = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308];
const INNER_LIPS = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95];

/** A head built from one photograph: its picture (framed as a selfie) and its mesh with depth. */
export interface HeadModel {
  picture: Rgb;
  /** 468 mesh points in picture pixels; z towards the viewer, same scale. */
  mesh: [number, number, number][];
  triangles: number[];
  faceWidth: number;
}

export interface Pose {
  yaw: number;
  pitch: number;
  roll: number;
  dx: number;
  dy: number;
  /** 0 open .. 1 closed. */
  eyesClosed: number;
  /** 0 closed .. 1 wide open. */
  mouthOpen: number;
}
export const REST: Pose = { yaw: 0, pitch: 0, roll: 0, dx: 0, dy: 0, eyesClosed: 0, mouthOpen: 0 };

/** A photograph is animated only when its face is at least this wide (pixels, cheek to cheek)... */
export const MIN_SOURCE_FACE_WIDTH = 110;
/** ... and frontal: the nose tip within this fraction of the face width from the cheeks' midpoint (about ±7° of yaw). */
export const MAX_SOURCE_NOSE_OFFSET = 0.06;

/** Human's mesh of the largest face of a picture: [x, y, z] with z away from the viewer. */
export type MeshOf = (rgb: Rgb) => Promise<{ mesh: [number, number, number?][] } | undefined>;

/**
 * Frames a photograph as a front-camera selfie (the face about 45 % of the frame's width, a little
 * above the centre, grey beyond the photograph) and meshes it. Undefined when no face is found or the
 * face is too small or not frontal enough to animate.
 */
export async function headModel(sharp: typeof Sharp, bytes: Buffer, meshOf: MeshOf, triangles: number[]): Promise<HeadModel | undefined> {
  const whole = await sharp(bytes).removeAlpha().toColourspace('srgb').resize({ width: 1024, height: 1024, fit: 'inside', withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
  const first = await meshOf({ data: whole.data, width: whole.info.width, height: whole.info.height });
  if (!first) return undefined;
  const p = (i: number) => first.mesh[i] ?? [0, 0];
  const width = Math.hypot(p(454)[0] - p(234)[0], p(454)[1] - p(234)[1]);
  // Only a frontal face, large enough not to be enlarged much, can be turned both ways convincingly.
  if (width < MIN_SOURCE_FACE_WIDTH || Math.abs(p(1)[0] - (p(234)[0] + p(454)[0]) / 2) > MAX_SOURCE_NOSE_OFFSET * width) return undefined;
  const scale = (0.45 * FRAME_WIDTH) / width;
  const cx = ((p(234)[0] + p(454)[0]) / 2) * scale;
  const cy = ((p(10)[1] + p(152)[1]) / 2) * scale;
  const w = Math.max(1, Math.round(whole.info.width * scale));
  const h = Math.max(1, Math.round(whole.info.height * scale));
  const pad = Math.max(FRAME_WIDTH, FRAME_HEIGHT);
  const left = Math.round(cx - FRAME_WIDTH / 2) + pad;
  const top = Math.round(cy - FRAME_HEIGHT * 0.45) + pad;
  // Two passes: sharp extends after extracting within one pipeline.
  const padded = await sharp(whole.data, { raw: { width: whole.info.width, height: whole.info.height, channels: 3 } })
    .resize(w, h)
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 128, g: 128, b: 128 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const framed = await sharp(padded.data, { raw: { width: padded.info.width, height: padded.info.height, channels: 3 } })
    .extract({ left, top, width: FRAME_WIDTH, height: FRAME_HEIGHT })
    .raw()
    .toBuffer();
  const picture = { data: framed, width: FRAME_WIDTH, height: FRAME_HEIGHT };
  const found = await meshOf(picture);
  if (!found || found.mesh.length < 468) return undefined;
  const raw = found.mesh.slice(0, 468).map((p) => [p[0], p[1], p[2] ?? 0] as [number, number, number]);
  // The mesh's z grows away from the viewer; the nose tip (1) is nearer than the cheeks (234, 454).
  const sign = (raw[1]?.[2] ?? 0) < (raw[234]?.[2] ?? 0) ? -1 : 1;
  const mesh = raw.map(([x, y, z]) => [x, y, sign * z] as [number, number, number]);
  const faceWidth = Math.hypot((mesh[454]?.[0] ?? 0) - (mesh[234]?.[0] ?? 0), (mesh[454]?.[1] ?? 0) - (mesh[234]?.[1] ?? 0));
  return { picture, mesh, triangles, faceWidth };
}

const at = (m: [number, number, number][], i: number) => m[i] ?? ([0, 0, 0] as [number, number, number]);

/** The mesh with the jaw dropped, in picture coordinates (the texture stays put; eyelids are drawn over it, eyelids()). */
function expression(model: HeadModel, pose: Pose): [number, number, number][] {
  const m = model.mesh.map((p) => [...p] as [number, number, number]);
  if (pose.mouthOpen > 0) {
    const mid = (at(model.mesh, 13)[1] + at(model.mesh, 14)[1]) / 2;
    const xm = (at(model.mesh, 61)[0] + at(model.mesh, 291)[0]) / 2;
    const drop = pose.mouthOpen * 0.45 * Math.hypot(at(model.mesh, 291)[0] - at(model.mesh, 61)[0], at(model.mesh, 291)[1] - at(model.mesh, 61)[1]);
    const upper = new Set(UPPER_INNER_LIP);
    model.mesh.forEach((p, i) => {
      if (p[1] <= mid || upper.has(i)) return;
      const wx = Math.max(0, 1 - Math.abs(p[0] - xm) / (0.55 * model.faceWidth));
      at(m, i)[1] += drop * wx ** 0.8;
    });
  }
  return m;
}

/**
 * Renders the head in a pose. The mesh is lifted to 3-D so that the rest pose reproduces the
 * photograph exactly, turned about a point behind the face (the neck), and projected in perspective
 * (camera at arm's length: 3.5 face widths). Around the face, a ring of hair and neck turns with it
 * and stretches to the fixed edge of the frame; the open mouth shows a dark interior.
 */
export function renderHead(model: HeadModel, pose: Pose): Rgb {
  const fw = model.faceWidth;
  const dist = 3.5 * fw;
  const m = expression(model, pose);
  const c0 = at(m, 234);
  const c1 = at(m, 454);
  const cx = (c0[0] + c1[0]) / 2;
  const cy = (at(m, 10)[1] + at(m, 152)[1]) / 2;
  const cz = (c0[2] + c1[2]) / 2 - 0.45 * fw;
  const lift = ([x, y, z]: [number, number, number]): [number, number, number] => {
    const k = (dist - (z - cz)) / dist;
    return [(x - cx) * k, (y - cy) * k, z - cz];
  };
  const project = (p: [number, number, number]): ScreenPoint => {
    const [x, y, z] = rotate(p, pose.yaw, pose.pitch, pose.roll);
    const k = dist / (dist - z);
    return [cx + pose.dx + x * k, cy + pose.dy + y * k, z];
  };
  const out: Canvas = canvas(FRAME_WIDTH, FRAME_HEIGHT, model.picture);
  const vertices = m.map((p) => project(lift(p)));
  const texture: TexPoint[] = model.mesh.map(([x, y]) => [x, y]);
  // Rings around the face: hair and neck (turning with the head), then the frame's edge (fixed).
  const ring = FACE_OVAL.map((i) => {
    const p = at(model.mesh, i);
    const dx = p[0] - cx;
    const dy = p[1] - cy;
    const outer: TexPoint = [cx + 1.5 * dx, cy + 1.5 * dy];
    const t = Math.min(...[dx > 0 ? (FRAME_WIDTH - cx) / dx : dx < 0 ? -cx / dx : Infinity, dy > 0 ? (FRAME_HEIGHT - cy) / dy : dy < 0 ? -cy / dy : Infinity]);
    const edge: TexPoint = [cx + t * dx, cy + t * dy];
    return { i, outer, outerScreen: project(lift([outer[0], outer[1], cz - 0.1 * fw])), edge, edgeScreen: [edge[0], edge[1], -100 * fw] as ScreenPoint };
  });
  ring.forEach((r, k) => {
    const n = ring[(k + 1) % ring.length] as typeof r;
    const a = vertices[r.i] as ScreenPoint;
    const b = vertices[n.i] as ScreenPoint;
    const ta = texture[r.i] as TexPoint;
    const tb = texture[n.i] as TexPoint;
    triangle(out, [a, b, n.outerScreen], [ta, tb, n.outer], model.picture);
    triangle(out, [a, n.outerScreen, r.outerScreen], [ta, n.outer, r.outer], model.picture);
    triangle(out, [r.outerScreen, n.outerScreen, n.edgeScreen], [r.outer, n.outer, n.edge], model.picture);
    triangle(out, [r.outerScreen, n.edgeScreen, r.edgeScreen], [r.outer, n.edge, r.edge], model.picture);
  });
  // The mouth's inside, just behind the lips.
  const lips = INNER_LIPS.map((i) => vertices[i] as ScreenPoint);
  const centre: ScreenPoint = [lips.reduce((s, p) => s + p[0], 0) / lips.length, lips.reduce((s, p) => s + p[1], 0) / lips.length, lips.reduce((s, p) => s + p[2], 0) / lips.length - 0.05 * fw];
  lips.forEach((p, k) => triangle(out, [centre, p, lips[(k + 1) % lips.length] as ScreenPoint], undefined, undefined, [52, 18, 20]));
  for (let k = 0; k + 2 < model.triangles.length; k += 3) {
    const [i, j, l] = [model.triangles[k] ?? 0, model.triangles[k + 1] ?? 0, model.triangles[k + 2] ?? 0];
    triangle(out, [vertices[i] as ScreenPoint, vertices[j] as ScreenPoint, vertices[l] as ScreenPoint], [texture[i] as TexPoint, texture[j] as TexPoint, texture[l] as TexPoint], model.picture);
  }
  if (pose.eyesClosed > 0) eyelids(out, model, m, pose.eyesClosed, (p) => project(lift(p)));
  return out;
}

/**
 * Closing eyelids: a lid of skin (the colour of the skin under the eye) with a lash line at its edge
 * slides down over each eye, from above the upper lid to a fraction `closed` of the way to the lower
 * lid (1: the lids meet); the eye under it stays as it was. Face mesh and iris models read this close
 * to a real closed eye: closed, 0.52–0.59 of the open eye on three faces (a real wink in
 * ../shared/faces, p02-4, reads 0.30–0.34). The bench once squeezed the whole eye into a slit
 * instead, which the models read as a squint (0.56–0.84 closed): half its synthetic blinks went
 * unseen. The lid is flat-coloured, without the skin's texture: a simplification.
 */
function eyelids(out: Canvas, model: HeadModel, m: [number, number, number][], closed: number, toScreen: (p: [number, number, number]) => ScreenPoint): void {
  const inFront = 0.02 * model.faceWidth;
  for (const eye of EYELIDS) {
    // The lid's skin: the picture's mean colour of the skin just under the eye (the brow side is shadowed and hairy).
    const skin = [0, 0, 0];
    let n = 0;
    for (const [k, u] of eye.upper.entries()) {
      const rim = at(model.mesh, u);
      const below = at(model.mesh, eye.lower[k] ?? u);
      for (const f of [1.6, 2, 2.4]) {
        const x = Math.round(rim[0] + (below[0] - rim[0]) * f);
        const y = Math.round(rim[1] + (below[1] - rim[1]) * f);
        if (x < 0 || y < 0 || x >= model.picture.width || y >= model.picture.height) continue;
        for (let c = 0; c < 3; c++) skin[c] = (skin[c] ?? 0) + (model.picture.data[(y * model.picture.width + x) * 3 + c] ?? 0);
        n++;
      }
    }
    const colour = skin.map((v) => Math.round(v / Math.max(1, n))) as [number, number, number];
    const lash = colour.map((v) => Math.round(v * 0.35)) as [number, number, number];
    const lid = eye.upper.map((u, k) => {
      const rim = at(m, u);
      const top = at(m, eye.above[k] ?? u);
      const bottom = at(m, eye.lower[k] ?? u);
      const edge: [number, number, number] = [rim[0] + (bottom[0] - rim[0]) * closed, rim[1] + (bottom[1] - rim[1]) * closed, Math.max(rim[2], bottom[2]) + inFront];
      const lashTop: [number, number, number] = [edge[0], edge[1] - 0.012 * model.faceWidth, edge[2] + inFront];
      const lashBottom: [number, number, number] = [edge[0], edge[1] + 0.006 * model.faceWidth, edge[2] + inFront];
      return { top: toScreen([top[0], top[1], top[2] + inFront]), edge: toScreen(edge), lashTop: toScreen(lashTop), lashBottom: toScreen(lashBottom) };
    });
    for (let k = 0; k + 1 < lid.length; k++) {
      const a = lid[k] as (typeof lid)[number];
      const b = lid[k + 1] as (typeof lid)[number];
      triangle(out, [a.top, b.top, b.edge], undefined, undefined, colour);
      triangle(out, [a.top, b.edge, a.edge], undefined, undefined, colour);
      triangle(out, [a.lashTop, b.lashTop, b.lashBottom], undefined, undefined, lash);
      triangle(out, [a.lashTop, b.lashBottom, a.lashBottom], undefined, undefined, lash);
    }
  }
}

/** How a flat picture (card or screen) is held: turned, tilted, slid, scaled, and bent about its vertical axis. */
export interface Hold {
  yaw: number;
  pitch: number;
  roll: number;
  dx: number;
  dy: number;
  scale: number;
  /** Sagitta of the bend as a fraction of the width (0 = flat; 0.1 = a card bowed towards the camera). */
  bend: number;
}

/** A plain room behind the card: a vertical gradient with a little texture. */
export function room(seed: number): Rgb {
  const data = Buffer.alloc(FRAME_WIDTH * FRAME_HEIGHT * 3);
  const base = [150 + (seed % 60), 140 + ((seed * 7) % 50), 120 + ((seed * 13) % 70)];
  for (let y = 0; y < FRAME_HEIGHT; y++) {
    for (let x = 0; x < FRAME_WIDTH; x++) {
      const shade = 1 - (0.35 * y) / FRAME_HEIGHT + 0.04 * Math.sin(x / 9 + y / 23);
      for (let c = 0; c < 3; c++) data[(y * FRAME_WIDTH + x) * 3 + c] = Math.max(0, Math.min(255, (base[c] ?? 128) * shade));
    }
  }
  return { data, width: FRAME_WIDTH, height: FRAME_HEIGHT };
}

/** Renders a picture held up in front of the camera (a 24 × 32 grid of textured triangles), at arm's length. */
export function renderFlat(picture: Rgb, hold: Hold, background: Rgb): Rgb {
  const out = canvas(FRAME_WIDTH, FRAME_HEIGHT, background);
  const cols = 24;
  const rows = 32;
  const dist = 3.5 * 0.42 * FRAME_WIDTH;
  const grid: { s: ScreenPoint; t: TexPoint }[] = [];
  for (let r = 0; r <= rows; r++) {
    for (let c = 0; c <= cols; c++) {
      const u = (c / cols) * picture.width;
      const v = (r / rows) * picture.height;
      const x = (u - picture.width / 2) * hold.scale;
      const y = (v - picture.height * 0.46) * hold.scale;
      const nx = (2 * u) / picture.width - 1;
      const z = hold.bend * picture.width * hold.scale * (1 - nx * nx);
      const [rx, ry, rz] = rotate([x, y, z], hold.yaw, hold.pitch, hold.roll);
      const k = dist / (dist - rz);
      grid.push({ s: [FRAME_WIDTH / 2 + hold.dx + rx * k, FRAME_HEIGHT * 0.46 + hold.dy + ry * k, rz], t: [u, v] });
    }
  }
  const g = (r: number, c: number) => grid[r * (cols + 1) + c] as { s: ScreenPoint; t: TexPoint };
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const [a, b, d, e] = [g(r, c), g(r, c + 1), g(r + 1, c + 1), g(r + 1, c)];
      triangle(out, [a.s, b.s, d.s], [a.t, b.t, d.t], picture);
      triangle(out, [a.s, d.s, e.s], [a.t, d.t, e.t], picture);
    }
  }
  return out;
}

/** A screen showing the picture: moiré with the camera's pixel grid, a glare spot, a moving refresh band. */
export function screenEffects(picture: Rgb, frame: number, seed: number): Rgb {
  const data = Buffer.from(picture.data);
  const angle = 0.3 + (seed % 7) * 0.11;
  const freq = 0.9 + (seed % 5) * 0.07;
  const gx = 60 + ((seed * 37) % 240);
  const gy = 80 + ((seed * 53) % 280);
  const glare = 60 + (seed % 4) * 25;
  const band = (frame * 37 + seed * 11) % picture.height;
  for (let y = 0; y < picture.height; y++) {
    const banding = 1 - 0.12 * Math.exp(-(((y - band) / 30) ** 2)) - 0.04 * Math.sin(y / 3.1);
    for (let x = 0; x < picture.width; x++) {
      const moire = 14 * Math.cos(freq * (x * Math.cos(angle) + y * Math.sin(angle))) * Math.cos(freq * 1.03 * (x * Math.cos(angle + 0.05) - y * Math.sin(angle + 0.05)));
      const g = glare * Math.exp(-((x - gx) ** 2 + (y - gy) ** 2) / (2 * 45 ** 2));
      for (let c = 0; c < 3; c++) {
        const k = (y * picture.width + x) * 3 + c;
        data[k] = Math.max(0, Math.min(255, ((data[k] ?? 0) + moire) * banding + g + (c === 2 ? 6 : 0)));
      }
    }
  }
  return { data, width: picture.width, height: picture.height };
}

/** Sensor noise and a brightness drift, as a camera adds to every frame. */
export function cameraNoise(rgb: Rgb, random: () => number, gain: number): Rgb {
  const data = Buffer.from(rgb.data);
  for (let k = 0; k < data.length; k++) data[k] = Math.max(0, Math.min(255, (data[k] ?? 0) * gain + (random() - 0.5) * 8));
  return { data, width: rgb.width, height: rgb.height };
}
