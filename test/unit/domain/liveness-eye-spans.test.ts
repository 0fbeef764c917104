import type { ChallengeStep } from '../../../src/domain/liveness/types';
import { eyeSpans, LIVENESS_THRESHOLDS } from '../../../src/domain/liveness/verify';

describe('eyeSpans: where the check reads eye openness', () => {
  it('is each blink window widened by the eyes’ context on both sides', () => {
    const steps: ChallengeStep[] = [
      { action: 'blink', windowMs: [400, 1700] },
      { action: 'turn_left', windowMs: [1700, 3000] },
      { action: 'blink', windowMs: [3000, 4300] },
    ];
    const c = LIVENESS_THRESHOLDS.blinkContextMs;
    expect(eyeSpans(steps)).toEqual([
      [400 - c, 1700 + c],
      [3000 - c, 4300 + c],
    ]);
  });

  it('is empty when no blink is asked, so that the eye model is spared', () => {
    expect(eyeSpans([{ action: 'turn_left', windowMs: [400, 1700] }, { action: 'open_mouth', windowMs: [1700, 3000] }])).toEqual([]);
  });

  it('follows the context given', () => {
    expect(eyeSpans([{ action: 'blink', windowMs: [1000, 2000] }], 100)).toEqual([[900, 2100]]);
  });
});
