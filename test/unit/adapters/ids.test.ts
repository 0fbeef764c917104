import { decodeTime, isValid, monotonicFactory } from 'ulid';
import { monotonicUlid, UlidGenerator } from '../../../src/adapters/ids';

describe('the ULID generator', () => {
  it('mints valid ULIDs whose time part is the clock and whose ids sort in minting order', () => {
    const ulid = monotonicUlid();
    const before = Date.now();
    const ids = Array.from({ length: 2000 }, () => ulid());
    for (const id of ids) {
      expect([id, isValid(id)]).toEqual([id, true]);
      expect(decodeTime(id)).toBeGreaterThanOrEqual(before);
      expect(decodeTime(id)).toBeLessThanOrEqual(Date.now());
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives what the ulid package gives for the same clock and random bytes, within a millisecond and across', () => {
    const times = [1_700_000_000_000, 1_700_000_000_000, 1_700_000_000_000, 1_700_000_000_001, 1_699_999_999_999, 2 ** 48 - 1];
    const bytes = [7, 200, 31, 32, 255, 0, 64, 99, 1, 2, 3, 4, 5, 6, 250, 31];
    const ours = monotonicUlid(((i) => () => times[i++]!)(0), () => Uint8Array.from(bytes));
    // The package draws one random number in [0, 1) per character, last character first: the same five bits, as a fraction.
    let c = 0;
    const theirs = monotonicFactory(() => (bytes[15 - (c++ % 16)]! & 31) / 32);
    for (const t of times) expect(ours()).toBe(theirs(t));
  });

  it('carries into the next character within one millisecond, and refuses to wrap', () => {
    const ulid = monotonicUlid(() => 1, () => new Uint8Array(16).fill(31));
    const first = ulid();
    expect(first.slice(10)).toBe('Z'.repeat(16));
    expect(() => ulid()).toThrow(/exhausted/);
    const carry = monotonicUlid(() => 1, () => Uint8Array.from([...new Array(15).fill(0), 31]));
    expect(carry().slice(10)).toBe(`${'0'.repeat(15)}Z`);
    expect(carry().slice(10)).toBe(`${'0'.repeat(14)}10`);
  });

  it('prefixes each id', () => {
    expect(new UlidGenerator().next('ver')).toMatch(/^ver_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});
