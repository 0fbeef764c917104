import { monotonicFactory } from 'ulid';
import { formatTimestamp } from '../domain/time';
import type { Clock, IdGenerator } from '../ports/clock';

/** prefix_ + ULID: sortable by creation time, 80 bits of randomness. */
export class UlidGenerator implements IdGenerator {
  private readonly ulid = monotonicFactory();
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
