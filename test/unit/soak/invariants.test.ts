import { check, markFaults, percentile, type RequestRecord, retryable, type Snapshot } from '../../../scripts/soak/invariants';

let seq = 0;
function rec(over: Partial<RequestRecord>): RequestRecord {
  seq += 1;
  return { seq, worker: 1, route: 'getVerification', method: 'GET', path: '/p', attempt: 1, status: 200, latencyMs: 10, atMs: seq * 100, ...over };
}

const verification = (over: Partial<NonNullable<Snapshot['verifications'][string]>> = {}) => ({
  status: 'Started',
  vendorReference: null,
  vendorState: null,
  submittedAt: null,
  comments: [],
  ...over,
});

function snapshot(over: Partial<Snapshot> = {}): Snapshot {
  return { verifications: {}, documents: {}, listed: [], webhooks: [], probes: {}, ...over };
}

const invariants = (records: RequestRecord[], snap: Snapshot, budget = 1000) => check(records, snap, budget).failures.map((f) => f.invariant);

describe('soak invariants', () => {
  it('passes a run whose every promise is kept', () => {
    const records = [
      rec({ route: 'createVerification', method: 'POST', status: 201, key: 'k1', reference: 'r1', returnedId: 'ver_1', promised: { kind: 'verification', id: 'ver_1' } }),
      rec({ route: 'approveVerification', key: 'k2', promised: { kind: 'comment', verification: 'ver_1', marker: '[m1]' } }),
      rec({ route: 'createDocument', status: 201, key: 'k3', returnedId: 'doc_1', promised: { kind: 'document', id: 'doc_1', verification: 'ver_1' } }),
      rec({ route: 'createWebhook', status: 201, key: 'k4', reference: 'http://h/k4', returnedId: 'whk_1', promised: { kind: 'webhook', id: 'whk_1' } }),
      rec({ status: 503 }),
    ];
    const snap = snapshot({
      verifications: { ver_1: verification({ status: 'Approved', vendorReference: 'r1', comments: ['[m1] looks fine'] }) },
      documents: { doc_1: true },
      listed: [{ id: 'ver_1', vendorReference: 'r1' }],
      webhooks: [{ id: 'whk_1', url: 'http://h/k4' }],
      probes: { ver_1: { action: 'reject', status: 200, accepted: [200] } },
    });
    const verdict = check(records, snap, 1000);
    expect(verdict.failures).toEqual([]);
    expect(verdict.figures).toMatchObject({ requests: 5, status503: 1, status5xx: 0, withoutRecord: 0, duplicateKeys: 0, overBudget: 0, bricked: 0 });
    expect(verdict.figures.byRoute.getVerification).toEqual({ '503': 1 });
  });

  it('fails a 2xx answer whose record is gone, unless the soak deleted it', () => {
    const created = rec({ route: 'createVerification', status: 201, key: 'k', returnedId: 'ver_1', promised: { kind: 'verification', id: 'ver_1' } });
    const document = rec({ route: 'createDocument', status: 201, key: 'd', returnedId: 'doc_1', promised: { kind: 'document', id: 'doc_1', verification: 'ver_1' } });
    const action = rec({ route: 'cancelVerification', promised: { kind: 'comment', verification: 'ver_2', marker: '[m]' } });
    const snap = snapshot({ verifications: { ver_1: null, ver_2: verification({ comments: ['other'] }) }, documents: { doc_1: false } });
    expect(invariants([created, document, action], snap)).toEqual(['record-exists', 'record-exists', 'record-exists']);
    // A failed delete may have been committed all the same: what it addressed may be gone.
    const removed = rec({ route: 'deleteVerification', method: 'DELETE', status: 503, deletes: 'ver_1' });
    expect(invariants([created, document, removed], snap)).toEqual([]);
  });

  it('accepts the vendor_state of a 2xx PATCH or of any PATCH sent after it, nothing older', () => {
    const first = rec({ route: 'updateVerification', vendorState: { verification: 'ver_1', value: 'a' }, promised: { kind: 'vendor_state', verification: 'ver_1', value: 'a' } });
    const later = rec({ route: 'updateVerification', status: 503, vendorState: { verification: 'ver_1', value: 'b' } });
    const with_ = (value: string) => snapshot({ verifications: { ver_1: verification({ vendorState: value }) } });
    expect(invariants([first, later], with_('a'))).toEqual([]);
    expect(invariants([first, later], with_('b'))).toEqual([]);
    expect(invariants([first, later], with_('z'))).toEqual(['record-exists']);
  });

  it('counts a key that made two verifications, seen in the list or in the answers', () => {
    const first = rec({ route: 'createVerification', status: 500, key: 'k', reference: 'r' });
    const retry = rec({ route: 'createVerification', status: 201, key: 'k', reference: 'r', attempt: 2, returnedId: 'ver_2', promised: { kind: 'verification', id: 'ver_2' } });
    const listed = snapshot({
      verifications: { ver_1: verification(), ver_2: verification() },
      listed: [
        { id: 'ver_1', vendorReference: 'r' },
        { id: 'ver_2', vendorReference: 'r' },
      ],
    });
    const verdict = check([first, retry], listed, 1000);
    expect(verdict.figures.duplicateKeys).toBe(1);
    expect(verdict.failures.map((f) => f.invariant).sort()).toEqual(['no-5xx-but-503', 'one-resource-per-key']);
    // Two different ids answered for one key, even when one was deleted since.
    const again = rec({ route: 'createVerification', status: 201, key: 'k', reference: 'r', attempt: 3, returnedId: 'ver_3' });
    expect(check([retry, again], snapshot({ verifications: { ver_2: verification(), ver_3: verification() } }), 1000).figures.duplicateKeys).toBe(1);
  });

  it('counts two webhooks made by one key through their URL', () => {
    const made = rec({ route: 'createWebhook', status: 201, key: 'w', reference: 'http://h/w', returnedId: 'whk_1', promised: { kind: 'webhook', id: 'whk_1' } });
    const snap = snapshot({
      webhooks: [
        { id: 'whk_1', url: 'http://h/w' },
        { id: 'whk_2', url: 'http://h/w' },
      ],
    });
    expect(invariants([made], snap)).toEqual(['one-resource-per-key']);
  });

  it('fails answers over the budget, client timeouts, 5xx other than 503 and dropped connections', () => {
    const records = [rec({ latencyMs: 1001 }), rec({ status: 'timeout', latencyMs: 900 }), rec({ status: 500 }), rec({ status: 502 }), rec({ status: 503 }), rec({ status: 'network' })];
    const verdict = check(records, snapshot(), 1000);
    expect(verdict.failures.map((f) => f.invariant)).toEqual(['within-budget', 'within-budget', 'no-5xx-but-503', 'no-5xx-but-503', 'answered']);
    expect(verdict.figures).toMatchObject({ overBudget: 2, status5xx: 2, status503: 1, timeouts: 1, networkErrors: 1 });
  });

  it('fails a verification that refuses its probe', () => {
    const snap = snapshot({ probes: { ver_1: { action: 'approve', status: 500, accepted: [200] }, ver_2: { action: 'approve', status: 200, accepted: [200] } } });
    expect(check([], snap, 1000).failures).toEqual([{ invariant: 'actionable', detail: 'approve ver_1 -> 500 (accepted: 200)' }]);
  });

  it('notes keys given up that were made all the same, retries told the change was already made, and first requests answered "in progress"', () => {
    const gaveUp = [rec({ route: 'createVerification', status: 503, key: 'g', reference: 'rg' }), rec({ route: 'createVerification', status: 'timeout', key: 'g', reference: 'rg', attempt: 2 })];
    const refused = [rec({ route: 'approveVerification', status: 503, key: 'a' }), rec({ route: 'approveVerification', status: 400, key: 'a', attempt: 2, message: 'Verification is already approved' })];
    const verdict = check([...gaveUp, ...refused], snapshot({ listed: [{ id: 'ver_9', vendorReference: 'rg' }] }), 60_000);
    expect(verdict.figures).toMatchObject({ gaveUp: 1, gaveUpButCommitted: 1, retryAnswered4xx: 1, firstAnsweredInProgress: 0 });
    expect(verdict.notes).toHaveLength(2);
    const stuck = [
      rec({ route: 'createDocument', status: 400, key: 'd', message: 'A request with this Idempotency-Key is still being processed; retry shortly' }),
      rec({ route: 'createDocument', status: 201, key: 'd', attempt: 2 }),
    ];
    expect(check(stuck, snapshot(), 60_000).figures.firstAnsweredInProgress).toBe(1);
  });
});

describe('soak helpers', () => {
  it('retries what a careful client retries', () => {
    expect([retryable('timeout'), retryable('network'), retryable(500), retryable(503)]).toEqual([true, true, true, true]);
    expect(retryable(400, 'A request with this Idempotency-Key is still being processed; retry shortly')).toBe(true);
    expect([retryable(400, 'Verification is already approved'), retryable(422), retryable(201)]).toEqual([false, false, false]);
  });

  it('marks the requests that overlapped a fault, until the service recovered', () => {
    const records = [rec({ atMs: 0, latencyMs: 50 }), rec({ atMs: 90, latencyMs: 20 }), rec({ atMs: 500, latencyMs: 10 }), rec({ atMs: 2000, latencyMs: 10 })];
    markFaults(records, [
      { kind: 'freeze', atMs: 100, recoveredMs: 300 },
      { kind: 'kill', atMs: 1500 },
    ]);
    expect(records.map((r) => r.fault)).toEqual([undefined, 'freeze', undefined, 'kill']);
  });

  it('takes nearest-rank percentiles', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect([percentile(sorted, 50), percentile(sorted, 95), percentile(sorted, 100), percentile([], 50)]).toEqual([5, 10, 10, 0]);
  });
});
