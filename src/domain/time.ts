/**
 * Timestamps are ISO 8601 UTC with microseconds: `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
 * `micros` is microseconds since the Unix epoch.
 */
export function formatTimestamp(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const frac = Math.floor(micros % 1000)
    .toString()
    .padStart(3, '0');
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  return `${iso.slice(0, 23)}${frac}Z`;
}

/** Adds seconds to a timestamp produced by formatTimestamp, returning epoch seconds. */
export function epochSeconds(timestamp: string): number {
  return Math.floor(Date.parse(timestamp) / 1000);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}
