import type { ListedDate } from './types';

/** A person's date of birth as given: YYYY, YYYY-MM or YYYY-MM-DD. */
export interface PartialDate {
  year: number;
  month?: number;
  day?: number;
}

/** Parses YYYY, YYYY-MM or YYYY-MM-DD (a real calendar date); undefined for anything else. */
export function parsePartialDate(text: string | undefined): PartialDate | undefined {
  if (!text) return undefined;
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(text.trim());
  if (!m) return undefined;
  const year = Number(m[1]);
  if (year < 1800 || year > 2200) return undefined;
  if (m[2] === undefined) return { year };
  const month = Number(m[2]);
  if (month < 1 || month > 12) return undefined;
  if (m[3] === undefined) return { year, month };
  const day = Number(m[3]);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return undefined;
  return { year, month, day };
}

/**
 * How a person's date of birth relates to the dates a list gives. `exact`: same day; `month`: same
 * year and month; `year`: the year agrees (or falls in the listed range, or within a year of an
 * approximate one) and nothing finer contradicts; `day_mismatch`: same year but the listed day or
 * month differs; `disjoint`: no listed date has the person's year; `unknown`: one side gives no date.
 */
export type DateRelation = 'exact' | 'month' | 'year' | 'day_mismatch' | 'disjoint' | 'unknown';

const RANK: Record<DateRelation, number> = { exact: 5, month: 4, year: 3, day_mismatch: 2, disjoint: 1, unknown: 0 };

export function compareBirthDates(person: PartialDate | undefined, listed: readonly ListedDate[]): { relation: DateRelation; listed?: string } {
  if (!person || listed.length === 0) return { relation: 'unknown' };
  let best: { relation: DateRelation; listed?: string } = { relation: 'unknown' };
  for (const d of listed) {
    const r = relate(person, d);
    if (RANK[r] > RANK[best.relation]) best = { relation: r, listed: describeListedDate(d) };
  }
  return best;
}

function relate(p: PartialDate, d: ListedDate): DateRelation {
  if ('exact' in d) {
    const [y, m, day] = d.exact.split('-').map(Number);
    if (y !== p.year) return 'disjoint';
    if (p.month === undefined) return 'year';
    if (m !== p.month) return 'day_mismatch';
    if (p.day === undefined) return 'month';
    return day === p.day ? 'exact' : 'day_mismatch';
  }
  if ('month' in d) {
    const [y, m] = d.month.split('-').map(Number);
    if (y !== p.year) return 'disjoint';
    if (p.month === undefined) return 'year';
    return m === p.month ? 'month' : 'day_mismatch';
  }
  if ('fromYear' in d) return p.year >= d.fromYear && p.year <= d.toYear ? 'year' : 'disjoint';
  const slack = d.approximate ? 1 : 0;
  return Math.abs(p.year - d.year) <= slack ? 'year' : 'disjoint';
}

/** A listed date as a reviewer reads it. */
export function describeListedDate(d: ListedDate): string {
  if ('exact' in d) return d.exact;
  if ('month' in d) return d.month;
  if ('fromYear' in d) return `${d.fromYear} to ${d.toYear}`;
  return d.approximate ? `circa ${d.year}` : String(d.year);
}
