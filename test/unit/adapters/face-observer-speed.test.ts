import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { faces } from '../../../src/adapters/offline/engines';
import { cutFor, DETECT_EVERY, noStages, observeFrames } from '../../../src/adapters/offline/face-observer';
import * as threads from '../../../src/adapters/offline/face-observer-thread';
import { observerThread } from '../../../src/adapters/offline/face-observer-thread';
import { faceSide } from '../../../src/adapters/offline/face-match';

/** Photographs of ../shared/faces (read in place, never copied). */
const FACES = resolve(__dirname, '..', '..', '..', '..', 'shared', 'faces', 'images');
const photo = (file: string, side = 480) => sharp(readFileSync(join(FACES, file))).resize(side, side, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer();

describe('face observer: what it spares', () => {
  it('runs the face detector every few frames and after a frame without one face, and follows the face in between', async () => {
    const frame = await photo('p01-1.jpg');
    const n = 2 * DETECT_EVERY + 1;
    const broken = 2;
    const bytes = Array.from({ length: n }, (_, i) => (i === broken ? Buffer.from('not an image') : frame));
    const stages = noStages();
    const observed = await observeFrames(bytes, bytes.map((_, i) => i * 100), { describe: 0, eyes: false, stages });
    // The first frame, the one after the undecodable one, and every DETECT_EVERY-th are detected; the others follow.
    const detected = bytes.filter((_, i) => i !== broken && (i === 0 || i === broken + 1 || i % DETECT_EVERY === 0)).length;
    expect(DETECT_EVERY).toBeGreaterThan(1);
    expect(stages).toMatchObject({ frames: n, detectedFrames: detected });
    expect(detected).toBeLessThan(n - 1);
    expect(observed.map((o) => o.faces)).toEqual(bytes.map((_, i) => (i === broken ? 0 : 1)));
    const yaws = observed.filter((o) => o.faces === 1).map((o) => o.yaw ?? Number.NaN);
    // A followed frame reads the same face as a detected one (same picture: same pose within a degree).
    for (const yaw of yaws) expect(Math.abs(yaw - (yaws[0] ?? 0))).toBeLessThan(1);
  }, 120_000);

  it('measures the eyes only within the spans asked for (around the blink windows)', async () => {
    const frame = await photo('p01-1.jpg');
    const bytes = Array.from({ length: 6 }, () => frame);
    const stages = noStages();
    const observed = await observeFrames(bytes, [1000, 1100, 1200, 1300, 1400, 1500], { describe: 0, eyes: [[150, 350]], stages });
    expect(observed.map((o) => o.eyeOpen !== undefined)).toEqual([false, false, true, true, false, false]);
    expect(stages.eyeFrames).toBe(2);
  }, 120_000);

  it('describes a frame at the face the mesh found, close to what the face engine finds with its own detector', async () => {
    const frame = await photo('obama-1.jpg');
    const [o] = await observeFrames([frame], [0], { describe: 1, eyes: false });
    expect(o?.descriptor).toHaveLength(128);
    const engine = await faces();
    const { data, info } = await sharp(frame).raw().toBuffer({ resolveWithObject: true });
    const own = faceSide(await engine.faces({ data, width: info.width, height: info.height })).face?.embedding;
    expect(own).toBeDefined();
    // The same person's photographs sit under 0.6 apart; the two boxes' descriptors much closer.
    expect(engine.distance(o?.descriptor ?? [], own ?? [])).toBeLessThan(0.15);
  }, 120_000);

  it('cuts a capture for two threads at a detected frame, the worker taking about the share asked, each part at least a detection interval', () => {
    expect(cutFor(4 * DETECT_EVERY - 1)).toBe(4 * DETECT_EVERY - 1);
    for (const n of [20, 49, 54, 65, 100]) {
      for (const share of [0.5, 0.62, 0.99, 0.01]) {
        const cut = cutFor(n, share);
        expect([n, share, cut % DETECT_EVERY]).toEqual([n, share, 0]);
        expect(cut).toBeGreaterThanOrEqual(DETECT_EVERY);
        expect(n - cut).toBeGreaterThanOrEqual(DETECT_EVERY);
        if (share > 0.05 && share < 0.95) expect(Math.abs((n - cut) / n - share)).toBeLessThanOrEqual(DETECT_EVERY / n);
      }
    }
    // The liveness observer's share, with the ID portrait described beside: 34 of 54 frames to the worker.
    expect(54 - cutFor(54, 0.62)).toBe(34);
  });

  it('weighs the frames whose eyes are read: a blink early in the capture moves the cut earlier, one late moves it later', () => {
    expect(cutFor(60)).toBe(30);
    // Eyes read on frames 5–24 (a blink window in the first half): that half costs more.
    expect(cutFor(60, 0.5, (i) => i >= 5 && i < 25)).toBe(25);
    expect(cutFor(60, 0.5, (i) => i >= 35 && i < 55)).toBe(35);
    // Eyes everywhere weigh every part alike.
    expect(cutFor(60, 0.5, () => true)).toBe(30);
  });

  it('observes a capture on two threads exactly as on one: the worker meshes the second half from a detected frame and describes half the chosen frames', async () => {
    const source = readFileSync(join(FACES, 'p01-1.jpg'));
    // A head that tilts a little from frame to frame: every frame differs.
    const bytes = await Promise.all(Array.from({ length: 4 * DETECT_EVERY + 3 }, (_, i) => sharp(source).rotate(-6 + i * 0.5, { background: '#808080' }).resize(480, 480, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer()));
    const times = bytes.map((_, i) => 1000 + i * 90);
    const options = { describe: 4, eyes: [[300, 900]] as [number, number][], windows: [[0, 700], [700, 1400], [1400, 2100]] as [number, number][] };
    const cut = cutFor(bytes.length);
    expect(cut % DETECT_EVERY).toBe(0);
    expect(cut).toBeGreaterThan(0);
    expect(cut).toBeLessThan(bytes.length);
    const [alone, shared] = [noStages(), noStages()];
    const one = await observeFrames(bytes, times, { ...options, threads: 1, stages: alone });
    const before = (await observerThread()).requests;
    const two = await observeFrames(bytes, times, { ...options, threads: 2, stages: shared });
    // The worker was asked twice (its half of the frames, its half of the descriptors) ...
    expect((await observerThread()).requests - before).toBe(2);
    // ... and what it saw is what one thread sees, frame by frame, descriptors and all.
    expect(two).toEqual(one);
    expect(one.filter((o) => o.descriptor).length).toBeGreaterThanOrEqual(4);
    expect(shared).toMatchObject({ frames: alone.frames, detectedFrames: alone.detectedFrames, eyeFrames: alone.eyeFrames, describedFrames: alone.describedFrames });
  }, 240_000);

  it("observes the worker's part itself when the worker fails: the same observations, nothing lost", async () => {
    const source = readFileSync(join(FACES, 'obama-1.jpg'));
    const bytes = await Promise.all(Array.from({ length: 4 * DETECT_EVERY }, (_, i) => sharp(source).rotate(i * 0.4 - 4, { background: '#808080' }).resize(480, 480, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer()));
    const times = bytes.map((_, i) => i * 90);
    const one = await observeFrames(bytes, times, { describe: 2, eyes: false, threads: 1 });
    let asked = 0;
    const failing: threads.ObserverThread = {
      requests: 0,
      mesh: async () => {
        asked++;
        throw new Error('the observer thread exited (1)');
      },
      describe: async () => {
        asked++;
        throw new Error('the observer thread exited (1)');
      },
    };
    const spy = jest.spyOn(threads, 'observerThread').mockResolvedValue(failing);
    try {
      expect(await observeFrames(bytes, times, { describe: 2, eyes: false, threads: 2 })).toEqual(one);
      expect(asked).toBe(2);
    } finally {
      spy.mockRestore();
    }
  }, 240_000);

  it('observes a capture the same whatever the process observed before (a fresh process, a capture of another size)', async () => {
    const source = readFileSync(join(FACES, 'obama-1.jpg'));
    const film = (side: number) => Promise.all(Array.from({ length: 2 * DETECT_EVERY }, (_, i) => sharp(source).rotate(i * 0.4 - 4, { background: '#808080' }).resize(side, side, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer()));
    const [capture, other] = await Promise.all([film(480), film(320)]);
    const times = capture.map((_, i) => i * 90);
    const options = { describe: 0, eyes: false, threads: 1 };
    const first = await observeFrames(capture, times, options);
    await observeFrames(other, times, options);
    const again = await observeFrames(capture, times, options);
    expect(again.map((o) => o.landmarks)).toEqual(first.map((o) => o.landmarks));
  }, 240_000);
});
