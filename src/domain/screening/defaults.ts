/**
 * The screening defaults, defined once: a flow's `checks.screening` (src/domain/flow.ts) and the
 * batch command use the same numbers. 0.85 is where the bench (npm run bench:screening) measured
 * recall ≥ 98 % with ≤ 1 false positive per 1,000 ordinary people on the OFAC and UN snapshots.
 */
export const DEFAULT_SCREENING_THRESHOLD = 0.85;

/** A snapshot older than this many days makes screening `not_evaluated` (OFAC and the UN publish changes within days). */
export const DEFAULT_MAX_AGE_DAYS = 7;
