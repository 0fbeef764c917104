import sharp from 'sharp';
import type { FaceEngine, FoundFace } from '../../../src/adapters/offline/face-engines';
import { forgetPortraits, portraitRead, portraitSide } from '../../../src/adapters/offline/face-selfie';

/** A face engine that counts its detector's runs and finds one face (or fails, when told to). */
function countingEngine(fail = false) {
  const engine = {
    name: 'counting',
    runs: 0,
    async faces(): Promise<FoundFace[]> {
      engine.runs++;
      if (fail) throw new Error('model failed');
      return [{ box: [10, 10, 40, 40], score: 0.9, embedding: [0.1, 0.2, 0.3] }];
    },
    distance: () => 0,
  };
  return engine satisfies FaceEngine;
}
const picture = (grey: number) => sharp({ create: { width: 64, height: 48, channels: 3, background: { r: grey, g: grey, b: grey } } }).jpeg().toBuffer();

describe('portraitSide: the ID portrait read once for the selfie comparison and the liveness check', () => {
  beforeEach(forgetPortraits);

  it('runs the detector once for the same portrait, again for another, and again once forgotten', async () => {
    const engine = countingEngine();
    const [a, b] = await Promise.all([picture(100), picture(200)]);
    const first = await portraitSide(sharp, engine, a, 40_000_000);
    expect(await portraitSide(sharp, engine, Buffer.from(a), 40_000_000)).toEqual(first);
    expect(first).toMatchObject({ count: 1, face: { embedding: [0.1, 0.2, 0.3] } });
    expect(engine.runs).toBe(1);
    await portraitSide(sharp, engine, b, 40_000_000);
    expect(engine.runs).toBe(2);
    forgetPortraits();
    await portraitSide(sharp, engine, a, 40_000_000);
    expect(engine.runs).toBe(3);
  });

  it('shares one reading between two callers asking at once', async () => {
    const engine = countingEngine();
    const a = await picture(100);
    await Promise.all([portraitSide(sharp, engine, a, 40_000_000), portraitSide(sharp, engine, a, 40_000_000)]);
    expect(engine.runs).toBe(1);
  });

  it('does not remember a failed reading, nor read a PDF', async () => {
    const a = await picture(100);
    const failing = countingEngine(true);
    await expect(portraitSide(sharp, failing, a, 40_000_000)).rejects.toThrow('model failed');
    await expect(portraitSide(sharp, failing, a, 40_000_000)).rejects.toThrow('model failed');
    expect(failing.runs).toBe(2);
    const engine = countingEngine();
    expect(await portraitSide(sharp, engine, Buffer.from('%PDF-1.7\n'), 40_000_000)).toEqual({ count: 0 });
    expect(engine.runs).toBe(0);
  });

  it('keeps only the latest few portraits', async () => {
    const engine = countingEngine();
    const pictures = await Promise.all(Array.from({ length: 10 }, (_, i) => picture(20 * i)));
    for (const p of pictures) await portraitSide(sharp, engine, p, 40_000_000);
    await portraitSide(sharp, engine, pictures[9] as Buffer, 40_000_000);
    expect(engine.runs).toBe(10);
    await portraitSide(sharp, engine, pictures[0] as Buffer, 40_000_000);
    expect(engine.runs).toBe(11);
  });

  it('says a portrait is read only once its reading has finished, for the engine and size it was read with', async () => {
    const engine = countingEngine();
    const a = await picture(100);
    expect(portraitRead(engine, a, 40_000_000)).toBe(false);
    const reading = portraitSide(sharp, engine, a, 40_000_000);
    // Still being read: a caller beside it would wait for it, not find it free.
    expect(portraitRead(engine, a, 40_000_000)).toBe(false);
    await reading;
    expect(portraitRead(engine, Buffer.from(a), 40_000_000)).toBe(true);
    expect(portraitRead(engine, a, 1_000_000)).toBe(false);
    expect(portraitRead({ ...engine, name: 'other' }, a, 40_000_000)).toBe(false);
    const b = await picture(200);
    const failing = countingEngine(true);
    await expect(portraitSide(sharp, failing, b, 40_000_000)).rejects.toThrow('model failed');
    expect(portraitRead(failing, b, 40_000_000)).toBe(false);
  });
});
