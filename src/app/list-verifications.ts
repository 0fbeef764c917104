import type { VerificationStatus } from '../domain/status';
import type { Deps, RequestInfo } from './deps';
import { requireFlow } from './load';
import { presentVerification } from './present';

/** Page size of list responses (spec: 15). */
export const PER_PAGE = 15;

/** The optional narrowing of a list, besides the flow (query parameters `status` and `search`). */
export interface ListFilters {
  status?: VerificationStatus | undefined;
  /** Normalised search text (src/domain/search.ts). */
  search?: string | undefined;
}

/**
 * A page of verifications, newest first, with Laravel-style `links` and `meta`. `flowPath` undefined
 * lists all flows; `status` and `search` narrow it, each served by an index, and `meta.total` counts
 * every match. The links carry the filters, so next/previous stay within them.
 */
export async function listVerifications(
  deps: Pick<Deps, 'flows' | 'verifications' | 'sessionSecret' | 'publicBaseUrl'>,
  req: RequestInfo,
  flowPath: string | undefined,
  page: number,
  filters: ListFilters = {},
) {
  const flow = flowPath === undefined ? undefined : await requireFlow(deps, flowPath);
  const names = new Map((flow ? [flow] : await deps.flows.list()).map((f) => [f.path, f.name]));
  const { items, total } = await deps.verifications.list({ flow: flow?.path, status: filters.status, search: filters.search }, page, PER_PAGE);
  const lastPage = Math.max(1, Math.ceil(total / PER_PAGE));
  const path = `${req.baseUrl}/api/v1/${flow ? `${flow.path}/` : ''}verifications`;
  const kept = new URLSearchParams();
  if (filters.status !== undefined) kept.set('status', String(filters.status));
  if (filters.search !== undefined) kept.set('search', filters.search);
  const link = (p: number) => `${path}?${kept.size > 0 ? `${kept.toString()}&` : ''}page=${p}`;
  const from = items.length > 0 ? (page - 1) * PER_PAGE + 1 : null;
  return {
    data: items.map((v) => presentVerification(deps, req, v, names.get(v.flow) ?? v.flow)),
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      path,
      per_page: PER_PAGE,
      to: from === null ? null : from + items.length - 1,
      total,
    },
  };
}
