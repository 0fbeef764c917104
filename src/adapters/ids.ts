import { randomBytes } from 'node:crypto';
import { formatTimestamp } from '../domain/time';
import type { Clock, IdGenerator } from '../ports/clock';

/** Crockford's base 32, the ULID alphabet. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Monotonic ULIDs (github.com/ulid/spec): 48 bits of milliseconds in 10 characters, then 80 random
 * bits in 16; within one millisecond (or when the clock steps back) the previous random part plus one,
 * so that ids minted by one process always sort in the order they were minted. Written here rather
 * than taken from the `ulid` package: the same output in ~0.5 KB instead of 2.4 KB of every function
 * that mints ids (a test compares the two).
 */
export function monotonicUlid(now: () => number = Date.now, random: (n: number) => Uint8Array = randomBytes): () => string {
  let lastTime = -1;
  let digits: number[] = [];
  return () => {
    let time = now();
    if (time <= lastTime) {
      time = lastTime;
      let i = digits.length - 1;
      while (i >= 0 && digits[i] === 31) digits[i--] = 0;
      if (i < 0) throw new Error('ULID random part exhausted within one millisecond');
      digits[i] = (digits[i] ?? 0) + 1;
    } else {
      lastTime = time;
      // 256 is a multiple of 32: each byte's low five bits are uniform.
      digits = [...random(16)].map((b) => b & 31);
    }
    let head = '';
    for (let i = 0, t = time; i < 10; i++, t = Math.floor(t / 32)) head = CROCKFORD[t % 32] + head;
    return head + digits.map((d) => CROCKFORD[d]).join('');
  };
}

/** prefix_ + ULID: sortable by creation time, 80 bits of randomness. */
export class UlidGenerator implements IdGenerator {
  private readonly ulid = monotonicUlid();
  next(prefix: string): string {
    return `${prefix}_${this.ulid()}`;
  }
}

/** Wall clock with real microseconds (performance.timeOrigin + performance.now()). */
export class SystemClock implements Clock {
  now(): string {
    return formatTimestamp(Math.floor((performance.timeOrigin + performance.now()) * 1000));
  }
}
