import { lazyLivenessObserver } from '../../src/container';
import type { ChallengeStep } from '../../src/domain/liveness/types';
import type { LivenessObserver, StoredFrame } from '../../src/ports/liveness';

describe('the lazily loaded liveness observer', () => {
  it("hands the observer the challenge's steps (without them the offline observer reads eyes on every frame) and loads it once", async () => {
    const calls: { frames: StoredFrame[]; steps?: readonly ChallengeStep[] }[] = [];
    let loads = 0;
    const observer = lazyLivenessObserver('offline', async () => {
      loads++;
      return {
        name: 'offline',
        observe: async (frames: StoredFrame[], steps?: readonly ChallengeStep[]) => {
          calls.push({ frames, ...(steps && { steps }) });
          return [];
        },
        portraitDescriptor: async () => [0.1, 0.2],
      } satisfies LivenessObserver;
    });
    const frames: StoredFrame[] = [{ t: 0, key: 'documents/v/liveness-n/0.jpg' }];
    const steps: ChallengeStep[] = [{ action: 'blink', windowMs: [300, 1500] }];
    await observer.observe(frames, steps);
    expect(await observer.portraitDescriptor({ key: 'p.jpg' } as never)).toEqual([0.1, 0.2]);
    expect(calls).toEqual([{ frames, steps }]);
    expect(loads).toBe(1);
    expect(observer.name).toBe('offline');
  });
});
