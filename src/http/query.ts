import { BadRequestError } from '../domain/errors';

/** `page`: a positive integer, default 1. */
export function parsePage(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  if (!/^[1-9]\d{0,8}$/.test(raw)) throw new BadRequestError('page must be a positive integer');
  return Number(raw);
}
