import * as v from 'valibot';
import { BadRequestError } from '../domain/errors';

/** `page` of the list operations; the contract's parameter is generated from it (scripts/openapi.ts). */
export const Page = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(999_999_999), v.description('Page number, 1 to 999999999; past the last page the list is empty'));

/** `page`: a positive integer in decimal digits, default 1. */
export function parsePage(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const page = /^[1-9]\d*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!v.is(Page, page)) throw new BadRequestError('page must be a positive integer');
  return page;
}
