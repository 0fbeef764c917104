import { randomFillSync } from 'node:crypto';
import { formatTimestamp } from '../domain/time';
import type { Clock, IdGenerator } from '../ports/clock';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * prefix_ + ULID (github.com/ulid/spec): 10 Crockford base-32 characters of Unix milliseconds, then
 * 16 of randomness (80 bits); sortable by creation time. Monotonic in a process, as the `ulid`
 * package's monotonicFactory: an id made in the same millisecond as the last (or after the clock
 * stepped back) keeps the last one's time and takes its randomness plus one. Written here rather
 * than imported: the package's encoders, error codes and browser detection were 2 KB of every
 * function's bundle (test/unit/adapters/ids.test.ts checks the ids against the package).
 */
export class UlidGenerator implements IdGenerator {
  private time = -1;
  /** One base-32 digit (0..31) per byte: 256 is a multiple of 32, so each is uniform. */
  private readonly random = new Uint8Array(16);

  next(prefix: string): string {
    const now = Date.now();
    if (now > this.time) {
      this.time = now;
      randomFillSync(this.random);
      for (let i = 0; i < this.random.length; i++) this.random[i] = (this.random[i] as number) & 31;
    } else {
      let i = this.random.length - 1;
      while (i >= 0 && this.random[i] === 31) this.random[i--] = 0;
      if (i < 0) throw new Error('ULID randomness exhausted within one millisecond');
      this.random[i] = (this.random[i] as number) + 1;
    }
    let id = '';
    for (let t = this.time, k = 0; k < 10; k++, t = Math.floor(t / 32)) id = CROCKFORD.charAt(t % 32) + id;
    for (const digit of this.random) id += CROCKFORD.charAt(digit);
    return `${prefix}_${id}`;
  }
}

/** Wall clock with real microseconds (performance.timeOrigin + performance.now()). */
export class SystemClock implements Clock {
  now(): string {
    return formatTimestamp(Math.floor((performance.timeOrigin + performance.now()) * 1000));
  }
}
