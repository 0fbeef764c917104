import * as v from 'valibot';
import { BadRequestError } from '../domain/errors';
import { normaliseSearch, SEARCH_MAX, SEARCH_MIN } from '../domain/search';
import { isVerificationStatus, type VerificationStatus } from '../domain/status';

/**
 * The query parameters of the list operations, by the name the route table records
 * (`RouteSpec.query`); documented from here by scripts/openapi.ts. Built on first use, not on import.
 */
function buildListQuery() {
  /** `page`; the contract's parameter is generated from it, with its default. */
  const page = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(999_999_999), v.description('Page number, 1 to 999999999; past the last page the list is empty'));
  /** `status`: one verification status number (as in Update Verification). */
  const status = v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.maxValue(8),
    v.description('Only verifications in this status: 1 Started, 2 Submitted, 3 Approved, 4 Rejected, 5 Double Check, 6 Expired, 7 Canceled, 8 Hold. Served by an index; `meta.total` stays exact.'),
  );
  /** `search`. */
  const search = v.pipe(
    v.string(),
    v.minLength(SEARCH_MIN),
    v.maxLength(SEARCH_MAX),
    v.description(
      `Verifications whose id, vendor reference or expected name ("first last" or "last first") starts with this text, compared without case and accents (${SEARCH_MIN} to ${SEARCH_MAX} characters). Prefix match only: no full-text search. Combines with \`status\` and the flow; \`meta.total\` stays exact.`,
    ),
  );
  return { page, status, search } as const;
}
let listQuery: ReturnType<typeof buildListQuery> | undefined;
export const QUERIES = { list: () => (listQuery ??= buildListQuery()) } as const;
export type QueryName = keyof typeof QUERIES;

/** `page`: a positive integer in decimal digits, default 1. */
export function parsePage(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const page = /^[1-9]\d*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!v.is(QUERIES.list().page, page)) throw new BadRequestError('page must be a positive integer');
  return page;
}

/** `status`: absent or empty for any status; else 1 to 8. */
export function parseStatusFilter(raw: string | undefined): VerificationStatus | undefined {
  if (raw === undefined || raw === '') return undefined;
  const status = /^\d$/.test(raw) ? Number(raw) : Number.NaN;
  if (!v.is(QUERIES.list().status, status) || !isVerificationStatus(status)) throw new BadRequestError('status must be an integer from 1 to 8');
  return status;
}

/** `search`: absent or blank for no search; else 2 to 100 characters once normalised (case, accents, spaces). */
export function parseSearch(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const normalised = normaliseSearch(raw);
  if (raw.length > SEARCH_MAX || normalised.length < SEARCH_MIN) throw new BadRequestError(`search must be ${SEARCH_MIN} to ${SEARCH_MAX} characters`);
  return normalised;
}

/** Every query parameter of the list operations, parsed (400 for a malformed one). */
export function parseListQuery(query: Record<string, string | undefined>) {
  return { page: parsePage(query.page), status: parseStatusFilter(query.status), search: parseSearch(query.search) };
}
