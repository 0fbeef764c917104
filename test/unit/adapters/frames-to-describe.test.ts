import { framesToDescribe } from '../../../src/adapters/offline/face-observer';
import type { FrameObservation } from '../../../src/domain/liveness/types';

const frame = (t: number, o: Partial<FrameObservation> = {}): FrameObservation => ({ t, faces: 1, yaw: 0, pitch: 0, mouthOpen: 0.05, sha256: `f${t}`, ...o });

describe('which frames of a capture get a face descriptor', () => {
  it('takes the most frontal frame and the extremes of the actions performed, not the ordinary frames of the others', () => {
    const frames = Array.from({ length: 40 }, (_, i) => frame(i * 100, { yaw: Math.sin(i) * 1.5, pitch: Math.cos(i) }));
    frames[5] = frame(500, { yaw: 30 }); // turned left
    frames[15] = frame(1500, { pitch: -22 }); // looked down
    frames[25] = frame(2500, { mouthOpen: 0.6 }); // opened the mouth
    frames[0] = frame(0, { yaw: 0, pitch: 0 });
    const picked = framesToDescribe(frames, 5);
    expect(picked.slice(0, 4)).toEqual([0, 5, 15, 25]);
    // The fifth is an evenly spaced ordinary frame, not the "most raised" or "turned right" one of a head that never did those.
    expect(picked).toHaveLength(5);
  });

  it('skips frames without exactly one face', () => {
    const frames = [frame(0, { faces: 0 }), frame(100, { faces: 2 }), frame(200), frame(300, { yaw: 25 })];
    expect(framesToDescribe(frames, 5).sort()).toEqual([2, 3]);
  });
});
