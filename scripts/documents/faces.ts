import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

/**
 * Faces for portraits and selfies, cut from the demo photographs of @vladmandic/face-api (a dev
 * dependency; licence unknown, so they are read from node_modules at run time and never copied into
 * this repository). Boxes (x, y, size in pixels of the 1920-wide originals) were found with Human.
 */
const FACES: { sample: number; x: number; y: number; size: number }[] = [
  { sample: 1, x: 331, y: 314, size: 353 },
  { sample: 1, x: 1435, y: 197, size: 283 },
  { sample: 1, x: 770, y: 384, size: 329 },
  { sample: 2, x: 1375, y: 118, size: 336 },
  { sample: 2, x: 794, y: 175, size: 379 },
];
export const FACE_COUNT = FACES.length;

function demoDir(): string | undefined {
  try {
    const dir = join(dirname(createRequire(__filename).resolve('@vladmandic/face-api')), '..', 'demo');
    return existsSync(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

export const facesAvailable = (): boolean => demoDir() !== undefined;

/** A head-and-shoulders crop of face `i`, as printed on an ID (JPEG). */
/** Face `i`'s box, its photograph and that photograph's size. */
async function sample(i: number) {
  const f = FACES[i % FACES.length]!;
  const file = join(demoDir() ?? '', `sample${f.sample}.jpg`);
  const meta = await sharp(file).metadata();
  return { f, file, meta };
}

export async function portraitOf(i: number): Promise<Buffer> {
  const { f, file, meta } = await sample(i);
  const margin = f.size * 0.45;
  const left = Math.max(0, Math.round(f.x - margin));
  const top = Math.max(0, Math.round(f.y - margin));
  const size = Math.round(f.size + 2 * margin);
  return sharp(file)
    .extract({ left, top, width: Math.min(size, (meta.width ?? 0) - left), height: Math.min(Math.round(size * 1.25), (meta.height ?? 0) - top) })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Another picture of face `i`: a wider crop, mirrored, brighter, slightly turned, as a phone selfie would be. */
export async function selfieOf(i: number): Promise<Buffer> {
  const { f, file, meta } = await sample(i);
  const margin = f.size * 0.8;
  const left = Math.max(0, Math.round(f.x - margin));
  const top = Math.max(0, Math.round(f.y - margin * 0.6));
  const width = Math.min(Math.round(f.size + 2 * margin), (meta.width ?? 0) - left);
  const height = Math.min(Math.round((f.size + 2 * margin) * 1.2), (meta.height ?? 0) - top);
  return sharp(file).extract({ left, top, width, height }).flop().rotate(4, { background: '#808080' }).modulate({ brightness: 1.15 }).jpeg({ quality: 80 }).toBuffer();
}
