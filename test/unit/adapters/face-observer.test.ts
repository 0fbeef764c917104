import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { observeFrames } from '../../../src/adapters/offline/face-observer';
import { LIVENESS_LANDMARKS } from '../../../src/domain/liveness/landmarks';

/** Photographs of ../shared/faces (read in place, never copied): near-frontal, one person each. */
const FACES = resolve(__dirname, '..', '..', '..', '..', 'shared', 'faces', 'images');

describe('face observer', () => {
  it('sees one face, near frontal, eyes open and mouth not wide open, with every landmark, on two photographs', async () => {
    // As the widget sends them: downscaled JPEG frames.
    const frames = await Promise.all(['p01-1.jpg', 'obama-1.jpg'].map((f) => sharp(readFileSync(join(FACES, f))).resize(480, 480, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer()));
    const observed = await observeFrames(frames, [0, 100], { describe: 1 });
    expect(observed).toHaveLength(2);
    for (const o of observed) {
      expect(o).toMatchObject({ faces: 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(Math.abs(o.yaw ?? 90)).toBeLessThan(15);
      expect(Math.abs(o.pitch ?? 90)).toBeLessThan(20);
      expect(o.eyeOpen).toBeGreaterThan(0.3);
      expect(o.mouthOpen).toBeLessThan(0.3);
      expect(o.landmarks).toHaveLength(LIVENESS_LANDMARKS.length);
    }
    expect(observed.filter((o) => o.descriptor?.length === 128)).toHaveLength(1);
    expect(observed.map((o) => o.t)).toEqual([0, 100]);
  }, 120_000);

  it('leaves eye openness out when eyes are not asked for', async () => {
    const frame = await sharp(readFileSync(join(FACES, 'p01-1.jpg'))).resize(480, 480, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer();
    const [o] = await observeFrames([frame], [0], { describe: 0, eyes: false });
    expect(o).toMatchObject({ faces: 1 });
    expect(o?.eyeOpen).toBeUndefined();
    expect(o?.mouthOpen).toBeDefined();
  }, 120_000);

  it('counts a frame the decoder refuses as a frame without a face', async () => {
    const [o] = await observeFrames([Buffer.from('not an image')], [0], { describe: 0 });
    expect(o).toMatchObject({ t: 0, faces: 0 });
    expect(o?.landmarks).toBeUndefined();
  }, 120_000);
});
