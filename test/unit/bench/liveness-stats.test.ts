import { refusedLowerBound, replayRefusedBound, upperBound } from '../../../scripts/bench/liveness/stats';

describe('the liveness bench judges a class by the lower bound of its refusal rate', () => {
  it('shows nothing from a few tries, however many are refused', () => {
    expect(refusedLowerBound(5, 5)).toBeLessThan(0.99);
    expect(refusedLowerBound(30, 30)).toBeLessThan(0.99);
  });

  it('shows 99 % only from about 270 tries with none failing, or many more with a few failing', () => {
    expect(refusedLowerBound(260, 260)).toBeLessThan(0.99);
    expect(refusedLowerBound(280, 280)).toBeGreaterThanOrEqual(0.99);
    expect(refusedLowerBound(2969, 3000)).toBeLessThan(0.99);
    expect(refusedLowerBound(9950, 10000)).toBeGreaterThanOrEqual(0.99);
  });

  it('is 0 without tries', () => {
    expect(refusedLowerBound(0, 0)).toBe(0);
  });
});

describe('the replay class is bounded by the draw, not sampled', () => {
  it('counts every draw of the same sequence as a pass, and adds the upper bound of passes against other sequences', () => {
    // No pass against 30 recordings x 113 other sequences: 1/114 + 0.08 % at most, at least 99.04 % refused.
    expect(replayRefusedBound({ judged: 30 * 113, passed: 0 }, 114)).toBeGreaterThanOrEqual(0.99);
    expect(replayRefusedBound({ judged: 30 * 113, passed: 0 }, 114)).toBeLessThan(1 - 1 / 114);
    // Too few recordings show nothing; a few passes against other sequences sink it.
    expect(replayRefusedBound({ judged: 10 * 113, passed: 0 }, 114)).toBeLessThan(0.99);
    expect(replayRefusedBound({ judged: 30 * 113, passed: 5 }, 114)).toBeLessThan(0.99);
    // Fewer sequences to draw from: even a perfect record cannot reach 99 %.
    expect(replayRefusedBound({ judged: 1_000_000, passed: 0 }, 50)).toBeLessThan(0.99);
  });

  it('bounds a rate from above as the refusal bound does from below', () => {
    expect(upperBound(0, 3390)).toBeCloseTo(0.000797, 5);
    expect(upperBound(0, 0)).toBe(1);
    expect(upperBound(3, 100)).toBeCloseTo(1 - refusedLowerBound(97, 100), 10);
  });
});
