import { lazyLivenessObserver } from '../../src/container';
import type { ImageRef } from '../../src/domain/entities';
import type { ChallengeStep } from '../../src/domain/liveness/types';
import type { LivenessObserver, StoredFrame } from '../../src/ports/liveness';

describe('the lazily loaded liveness observer', () => {
  it("hands the observer the challenge's steps (without them the offline observer reads eyes on every frame) and the portrait, and loads it once", async () => {
    const calls: { frames: StoredFrame[]; steps?: readonly ChallengeStep[]; portrait?: ImageRef }[] = [];
    let loads = 0;
    const observer = lazyLivenessObserver('offline', async () => {
      loads++;
      return {
        name: 'offline',
        observe: async (frames: StoredFrame[], steps?: readonly ChallengeStep[], portrait?: ImageRef) => {
          calls.push({ frames, ...(steps && { steps }), ...(portrait && { portrait }) });
          return { frames: [], ...(portrait && { portraitDescriptor: [0.1, 0.2] }) };
        },
      } satisfies LivenessObserver;
    });
    const frames: StoredFrame[] = [{ t: 0, key: 'documents/v/liveness-n/0.jpg' }];
    const steps: ChallengeStep[] = [{ action: 'blink', windowMs: [300, 1500] }];
    const portrait = { key: 'p.jpg' } as ImageRef;
    expect(await observer.observe(frames, steps)).toEqual({ frames: [] });
    expect(await observer.observe(frames, steps, portrait)).toEqual({ frames: [], portraitDescriptor: [0.1, 0.2] });
    expect(calls).toEqual([{ frames, steps }, { frames, steps, portrait }]);
    expect(loads).toBe(1);
    expect(observer.name).toBe('offline');
  });
});
