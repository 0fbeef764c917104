import { decodeTime, isValid, ulid } from 'ulid';
import { UlidGenerator } from '../../../src/adapters/ids';

const ulidOf = (id: string) => id.slice(id.indexOf('_') + 1);

describe('UlidGenerator', () => {
  afterEach(() => jest.restoreAllMocks());

  it('makes prefix_ + a ULID the ulid package reads, carrying the time it was made', () => {
    const before = Date.now();
    const id = new UlidGenerator().next('doc');
    const after = Date.now();
    expect(id).toMatch(/^doc_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isValid(ulidOf(id))).toBe(true);
    const time = decodeTime(ulidOf(id));
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(after);
  });

  it('encodes the time as the ulid package does, and differs in its 80 random bits from one millisecond to the next', () => {
    const now = jest.spyOn(Date, 'now');
    const ids = new UlidGenerator();
    for (const t of [0, 1, 1_700_000_000_123, 281_474_976_710_655]) {
      now.mockReturnValue(t);
      expect([t, ulidOf(ids.next('x')).slice(0, 10)]).toEqual([t, ulid(t).slice(0, 10)]);
    }
    const randoms = new Set<string>();
    for (let t = 1; t <= 200; t++) {
      now.mockReturnValue(1_700_000_000_000 + t);
      randoms.add(ulidOf(ids.next('x')).slice(10));
    }
    expect(randoms.size).toBe(200);
  });

  it('sorts in the order ids were made: the same millisecond, or a clock stepping back, takes the last randomness plus one', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const ids = new UlidGenerator();
    const made = Array.from({ length: 1000 }, () => ids.next('ver'));
    now.mockReturnValue(1_699_999_999_000);
    made.push(ids.next('ver'));
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
    expect(made.every((id) => decodeTime(ulidOf(id)) === 1_700_000_000_000)).toBe(true);
    // Plus one in base 32: the last character moves to the next digit (with carry).
    const [a, b] = [ulidOf(made[0]!), ulidOf(made[1]!)];
    const digits = (s: string) => [...s.slice(10)].reduce((n, c) => n * 32n + BigInt('0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(c)), 0n);
    expect(digits(b) - digits(a)).toBe(1n);
  });
});
