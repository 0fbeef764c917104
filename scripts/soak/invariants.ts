/**
 * The soak test's record of what it asked and what it was told, and the pure checks run on it once
 * DynamoDB Local is healthy again (issue 28 "Done when"): every 2xx answer's record exists, no
 * Idempotency-Key made two resources, no answer took longer than the budget, no 5xx but 503, and
 * every verification still takes an action. Pure, so that a unit test can hold the rules.
 */

/** An HTTP status, or why there was none: the client's timeout fired, or the connection failed. */
export type Outcome = number | 'timeout' | 'network';

/** What a 2xx answer says now exists; checked against the snapshot taken after the run. */
export type Promised =
  | { kind: 'verification'; id: string }
  | { kind: 'document'; id: string; verification: string }
  | { kind: 'webhook'; id: string }
  /** A manual action or a status change: its comment (which carries `marker`) is on the verification. */
  | { kind: 'comment'; verification: string; marker: string }
  | { kind: 'submitted'; verification: string }
  /** A PATCH of vendor_state: the value is this one, or one a later PATCH of the same verification sent. */
  | { kind: 'vendor_state'; verification: string; value: string };

/** One HTTP request as sent and answered (a retry is a record of its own, with the same key). */
export interface RequestRecord {
  seq: number;
  worker: number;
  /** Operation name, e.g. createVerification. */
  route: string;
  method: string;
  path: string;
  key?: string;
  /** 1 for the first send of a key (or of a request without one). */
  attempt: number;
  status: Outcome;
  latencyMs: number;
  /** Milliseconds since the traffic started. */
  atMs: number;
  /** The fault that overlapped the request (from the fault's start until /health answered 200 again). */
  fault?: 'kill' | 'freeze';
  /** The answer's `message` on an error (the service's own text: no personal data). */
  message?: string;
  /** The id the answer returned (data.id), when it returned one. */
  returnedId?: string;
  /** Set only on 2xx answers. */
  promised?: Promised;
  /**
   * What makes the resource a key creates findable and countable: a verification's vendor_reference,
   * a webhook's URL (both unique per key).
   */
  reference?: string;
  /** A PATCH's vendor_state (every attempt, answered or not: any may have been committed). */
  vendorState?: { verification: string; value: string };
  /** A DELETE of a verification (every attempt: any may have been committed). */
  deletes?: string;
}

/** What the service holds after the run, read once DynamoDB Local is healthy again. */
export interface Snapshot {
  /** Get Verification of every id the soak learned: null when it answered 404. */
  verifications: Record<string, SnapshotVerification | null>;
  /** Get Document of every document id the soak learned: true when it answered 200. */
  documents: Record<string, boolean>;
  /** Every verification List Verifications shows (all pages). */
  listed: { id: string; vendorReference: string | null }[];
  /** Every webhook of the flow. */
  webhooks: { id: string; url: string }[];
  /** The actionability probe of every verification not deleted: its answer and the answers that are fine. */
  probes: Record<string, { action: string; status: Outcome; accepted: number[] }>;
}

export interface SnapshotVerification {
  status: string;
  vendorReference: string | null;
  vendorState: string | null;
  submittedAt: string | null;
  /** Comment texts from `comments` and from `history`. */
  comments: string[];
}

export type Invariant = 'record-exists' | 'one-resource-per-key' | 'within-budget' | 'no-5xx-but-503' | 'answered' | 'actionable';

export interface Failure {
  invariant: Invariant;
  detail: string;
  seq?: number;
}

export interface Latency {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

export interface Figures {
  requests: number;
  /** Route -> status (or timeout/network) -> count. */
  byRoute: Record<string, Record<string, number>>;
  latency: Latency;
  latencyByRoute: Record<string, Latency>;
  status503: number;
  /** 5xx other than 503. */
  status5xx: number;
  timeouts: number;
  networkErrors: number;
  overBudget: number;
  /** 2xx answers whose record is gone. */
  withoutRecord: number;
  /** Keys that made more than one resource. */
  duplicateKeys: number;
  /** Verifications that refuse an action they should take. */
  bricked: number;
  /** Keys the client gave up on (no 2xx, last answer retryable). */
  gaveUp: number;
  /** ... of which the resource was made all the same (the client thinks it failed). */
  gaveUpButCommitted: number;
  /** Keys retried after an unknown outcome whose last answer says the change was already made: the retry did not replay it. */
  retryAnswered4xx: number;
  /** Keys whose very first request was answered "still being processed" (the service met its own claim). */
  firstAnsweredInProgress: number;
}

export interface Verdict {
  figures: Figures;
  failures: Failure[];
  /** What is worth knowing but breaks no invariant of issue 28 (gave-up keys that committed, retries answered 4xx). */
  notes: string[];
}

/** A fault as the checks see it: when it started and how long until the service was healthy again. */
export interface FaultWindow {
  kind: 'kill' | 'freeze';
  atMs: number;
  recoveredMs?: number;
}

/** Marks each request that overlapped a fault window (an unrecovered fault lasts to the end). */
export function markFaults(records: RequestRecord[], faults: readonly FaultWindow[]): void {
  for (const r of records) {
    const end = r.atMs + r.latencyMs;
    const hit = faults.find((f) => f.atMs < end && r.atMs < f.atMs + (f.recoveredMs ?? Number.POSITIVE_INFINITY));
    if (hit) r.fault = hit.kind;
  }
}

/** Whether a careful client sends the same request again: no answer, a 5xx, or "still being processed". */
export function retryable(status: Outcome, message?: string): boolean {
  if (typeof status !== 'number' || status >= 500) return true;
  return status >= 400 && /still being processed|in progress/i.test(message ?? '');
}

const is2xx = (s: Outcome): s is number => typeof s === 'number' && s >= 200 && s < 300;

/** Nearest-rank percentile of sorted values (0 when empty). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

function latencyOf(values: number[]): Latency {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] ?? 0 };
}

function groupBy<T>(items: readonly T[], key: (t: T) => string | undefined): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    const list = out.get(k) ?? [];
    list.push(item);
    out.set(k, list);
  }
  return out;
}

const describe = (r: RequestRecord) => `#${r.seq} ${r.method} ${r.path}${r.key ? ` key ${r.key} attempt ${r.attempt}` : ''} -> ${r.status} in ${Math.round(r.latencyMs)} ms${r.fault ? ` (during a ${r.fault})` : ''}`;

/** Whether the record a 2xx answer promised is there (or was deleted by the soak itself). */
function promiseKept(p: Promised, r: RequestRecord, snap: Snapshot, deleted: Set<string>, patches: RequestRecord[]): string | undefined {
  const verificationOf = (id: string) => snap.verifications[id];
  switch (p.kind) {
    case 'verification':
      return verificationOf(p.id) || deleted.has(p.id) ? undefined : `verification ${p.id} not found`;
    case 'document':
      return snap.documents[p.id] || deleted.has(p.verification) ? undefined : `document ${p.id} of ${p.verification} not found`;
    case 'webhook':
      return snap.webhooks.some((w) => w.id === p.id) ? undefined : `webhook ${p.id} not listed`;
    case 'comment': {
      if (deleted.has(p.verification)) return undefined;
      const v = verificationOf(p.verification);
      if (!v) return `verification ${p.verification} not found`;
      return v.comments.some((c) => c.includes(p.marker)) ? undefined : `comment ${p.marker} missing from ${p.verification} (now ${v.status})`;
    }
    case 'submitted': {
      if (deleted.has(p.verification)) return undefined;
      const v = verificationOf(p.verification);
      if (!v) return `verification ${p.verification} not found`;
      return v.submittedAt ? undefined : `${p.verification} has no submitted_at (now ${v.status})`;
    }
    case 'vendor_state': {
      if (deleted.has(p.verification)) return undefined;
      const v = verificationOf(p.verification);
      if (!v) return `verification ${p.verification} not found`;
      const allowed = new Set(patches.filter((x) => x.vendorState?.verification === p.verification && x.seq >= r.seq).map((x) => x.vendorState?.value));
      return allowed.has(v.vendorState ?? undefined) ? undefined : `${p.verification} vendor_state is ${JSON.stringify(v.vendorState)}, not ${JSON.stringify(p.value)} or a later one`;
    }
  }
}

/** The figures of a run and every invariant it broke, with the requests that broke it. */
export function check(records: readonly RequestRecord[], snap: Snapshot, budgetMs: number): Verdict {
  const failures: Failure[] = [];
  const byRoute: Record<string, Record<string, number>> = {};
  for (const r of records) {
    const row = (byRoute[r.route] ??= {});
    row[String(r.status)] = (row[String(r.status)] ?? 0) + 1;
  }
  const latencyByRoute = Object.fromEntries([...groupBy(records, (r) => r.route)].map(([route, rs]) => [route, latencyOf(rs.map((r) => r.latencyMs))]));

  let overBudget = 0;
  let status5xx = 0;
  let networkErrors = 0;
  for (const r of records) {
    if (r.status === 'timeout' || r.latencyMs > budgetMs) {
      overBudget++;
      failures.push({ invariant: 'within-budget', seq: r.seq, detail: `${describe(r)}: over the ${budgetMs} ms budget` });
    }
    if (typeof r.status === 'number' && r.status >= 500 && r.status !== 503) {
      status5xx++;
      failures.push({ invariant: 'no-5xx-but-503', seq: r.seq, detail: `${describe(r)}${r.message ? `: ${r.message}` : ''}` });
    }
    if (r.status === 'network') {
      networkErrors++;
      failures.push({ invariant: 'answered', seq: r.seq, detail: `${describe(r)}: the connection failed without an answer` });
    }
  }

  const deleted = new Set(records.flatMap((r) => (r.deletes ? [r.deletes] : [])));
  const patches = records.filter((r) => r.vendorState);
  let withoutRecord = 0;
  for (const r of records) {
    if (!is2xx(r.status) || !r.promised) continue;
    const missing = promiseKept(r.promised, r, snap, deleted, patches);
    if (missing) {
      withoutRecord++;
      failures.push({ invariant: 'record-exists', seq: r.seq, detail: `${describe(r)}: ${missing}` });
    }
  }

  // One resource per key: the ids the answers returned, and what the list shows under the key's unique reference or URL.
  const byKey = groupBy(
    records.filter((r) => r.key),
    (r) => `${r.route} ${r.key}`,
  );
  const listedByReference = groupBy(snap.listed, (v) => v.vendorReference ?? undefined);
  const webhooksByUrl = groupBy(snap.webhooks, (w) => w.url);
  let duplicateKeys = 0;
  let gaveUp = 0;
  let gaveUpButCommitted = 0;
  let retryAnswered4xx = 0;
  const notes: string[] = [];
  let firstAnsweredInProgress = 0;
  const short = (m: string) => (m.length > 40 ? `${m.slice(0, 40)}…` : m);
  const trail = (attempts: RequestRecord[]) => attempts.map((a) => `#${a.seq} ${a.status}${a.message && !is2xx(a.status) ? ` "${short(a.message)}"` : ''}`).join(', ');
  for (const [id, attempts] of byKey) {
    const first = attempts[0];
    const last = attempts[attempts.length - 1];
    if (!first || !last) continue;
    const reference = attempts.find((a) => a.reference)?.reference;
    const found = reference ? [...(listedByReference.get(reference) ?? []), ...(webhooksByUrl.get(reference) ?? [])].map((x) => x.id) : [];
    const returned = attempts.flatMap((a) => (is2xx(a.status) && a.returnedId ? [a.returnedId] : []));
    const made = new Set([...returned, ...found]);
    if (made.size > 1) {
      duplicateKeys++;
      failures.push({ invariant: 'one-resource-per-key', seq: first.seq, detail: `${id} made ${made.size}: ${[...made].join(', ')} (answers ${trail(attempts)})` });
    }
    if (first.attempt === 1 && first.status === 400 && retryable(first.status, first.message)) {
      firstAnsweredInProgress++;
      notes.push(`${id}: its first request was answered "still being processed" (answers ${trail(attempts)})`);
    }
    if (attempts.some((a) => is2xx(a.status))) continue;
    if (retryable(last.status, last.message)) {
      gaveUp++;
      if (found.length > 0) {
        gaveUpButCommitted++;
        notes.push(`${id} gave up but ${found.join(', ')} exists (answers ${trail(attempts)})`);
      }
    } else if (attempts.length > 1 && typeof last.status === 'number' && last.status < 500 && /already|not in Started/i.test(last.message ?? '')) {
      retryAnswered4xx++;
      notes.push(`${id} retried after an unknown outcome and was told the change was already made (answers ${trail(attempts)})`);
    }
  }

  let bricked = 0;
  for (const [id, probe] of Object.entries(snap.probes)) {
    if (typeof probe.status === 'number' && probe.accepted.includes(probe.status)) continue;
    bricked++;
    failures.push({ invariant: 'actionable', detail: `${probe.action} ${id} -> ${probe.status} (accepted: ${probe.accepted.join(', ')})` });
  }

  return {
    figures: {
      requests: records.length,
      byRoute,
      latency: latencyOf(records.map((r) => r.latencyMs)),
      latencyByRoute,
      status503: records.filter((r) => r.status === 503).length,
      status5xx,
      timeouts: records.filter((r) => r.status === 'timeout').length,
      networkErrors,
      overBudget,
      withoutRecord,
      duplicateKeys,
      bricked,
      gaveUp,
      gaveUpButCommitted,
      retryAnswered4xx,
      firstAnsweredInProgress,
    },
    failures,
    notes,
  };
}
