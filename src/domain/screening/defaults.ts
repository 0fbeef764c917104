/**
 * The screening defaults, defined once: a flow's `checks.screening` (src/domain/flow.ts) and the
 * batch command use the same numbers. 0.83 is where the bench (npm run bench:screening, seeds 1-4,
 * 2026-11-27) measured recall 98.2-98.5 % with 0.3-0.7 false positives per 1,000 ordinary people on
 * the OFAC and UN snapshots; at 0.85 recall was 97.4-98.1 %.
 */
export const DEFAULT_SCREENING_THRESHOLD = 0.83;

/** A snapshot older than this many days makes screening `not_evaluated` (OFAC and the UN publish changes within days). */
export const DEFAULT_MAX_AGE_DAYS = 7;
