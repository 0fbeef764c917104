import { framesToDescribe } from '../../../src/adapters/offline/face-observer';
import type { FrameObservation } from '../../../src/domain/liveness/types';

const frame = (t: number, o: Partial<FrameObservation> = {}): FrameObservation => ({ t, faces: 1, yaw: 0, pitch: 0, mouthOpen: 0.05, sha256: `f${t}`, ...o });

describe('which frames of a capture get a face descriptor: every step window has one', () => {
  it('describes the middle of a window the extremes leave out (a blink, which someone else could perform unseen)', () => {
    // 45 frames at 100 ms: a turn in 500–1800, an open mouth in 1800–3100, a blink in 3100–4400.
    const frames = Array.from({ length: 45 }, (_, i) => frame(1000 + i * 100, { yaw: 0.3 * Math.sin(i), pitch: 0.2 * Math.cos(i) }));
    frames[10] = frame(2000, { yaw: 30 });
    frames[24] = frame(3400, { mouthOpen: 0.6 });
    const windows: [number, number][] = [
      [500, 1800],
      [1800, 3100],
      [3100, 4400],
    ];
    const picked = framesToDescribe(frames, 3, windows);
    const inBlink = picked.filter((i) => (frames[i]?.t ?? 0) - 1000 >= 3100 && (frames[i]?.t ?? 0) - 1000 <= 4400);
    expect(inBlink).toHaveLength(1);
    expect(Math.abs((frames[inBlink[0] ?? 0]?.t ?? 0) - 1000 - 3750)).toBeLessThanOrEqual(50);
    expect(picked.slice(0, 3)).toEqual(expect.arrayContaining([10, 24]));
  });

  it('adds nothing for a window already described, nor for frames without one face', () => {
    const frames = [frame(0, { yaw: 0 }), frame(100, { yaw: 25 }), frame(200, { faces: 0 }), frame(300, { faces: 2 })];
    expect(framesToDescribe(frames, 5, [[50, 150]]).sort()).toEqual([0, 1]);
    expect(framesToDescribe(frames, 5, [[190, 310]]).sort()).toEqual([0, 1]);
  });
});
