import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { faceApiEngine, faceImage } from '../../../src/adapters/offline/face-engines';

/** Photographs of ../shared/faces (read in place, never copied). */
const FACES = resolve(__dirname, '..', '..', '..', '..', 'shared', 'faces', 'images');

describe('face age estimate (face-api age model)', () => {
  it('estimates an adult age for adults when asked, and runs no age model otherwise', async () => {
    const engine = await faceApiEngine();
    for (const file of ['p01-1.jpg', 'obama-1.jpg']) {
      const rgb = await faceImage(sharp, readFileSync(join(FACES, file)), 40_000_000);
      const [aged] = await engine.faces(rgb, { age: true });
      // Adults, photographed at roughly 25 to 60: an estimate outside 18..75 would be a broken model or crop.
      expect(aged?.age).toBeGreaterThan(18);
      expect(aged?.age).toBeLessThan(75);
      const [plain] = await engine.faces(rgb);
      expect(plain?.age).toBeUndefined();
      // The same face, found by the same detector, with the same descriptor either way.
      expect(plain?.embedding).toEqual(aged?.embedding);
    }
  }, 120_000);
});
