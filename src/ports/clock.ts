/** Current time as the API writes it: ISO 8601 UTC with microseconds. */
export interface Clock {
  now(): string;
}

/** Prefixed, time-ordered identifiers (prefix + ULID). */
export interface IdGenerator {
  next(prefix: string): string;
}
