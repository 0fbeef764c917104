import { refusedLowerBound } from '../../../scripts/bench/liveness/stats';

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
