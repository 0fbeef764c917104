import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { COUNTER_SHARDS, keys } from '../../src/adapters/dynamodb/keys';
import { b64, png } from '../fixtures/images';
import { type ApiResponse, client, defaultBody, useTestRuntime } from './harness';

const t = useTestRuntime();
const api: ReturnType<typeof client> = (...args) => t.api(...args);
const action = { comment: 'Checked by hand', email: 'reviewer@example.com' };
const FLOWS = ['default', 'photo-id'] as const;
const STATUSES = [1, 2, 3, 4, 5, 6, 7, 8];
const LABELS: Record<number, string> = { 1: 'Started', 2: 'Submitted', 3: 'Approved', 4: 'Rejected', 5: 'Double Check', 6: 'Expired', 7: 'Canceled', 8: 'Hold' };

/** Every verification the test created and has not deleted, by id (its flow). */
const live = new Map<string, string>();

async function create(flow: string, first: string, last: string, ref: string): Promise<string> {
  const body = flow === 'default' ? { ...defaultBody(), vendor_reference: ref, person: { first_name: first, last_name: last, date_of_birth: '1990-12-10' } } : { vendor_reference: ref, person: { first_name: first, last_name: last } };
  const res = await api('POST', `/api/v1/${flow}/verifications`, body);
  expect(res.status).toBe(201);
  live.set(res.body.data.id, flow);
  return res.body.data.id;
}

async function uploadAll(flow: string, id: string): Promise<void> {
  const up = (context: string, type: number, country: string) =>
    api('POST', `/api/v1/${flow}/documents`, { verification: id, document: { context_type: context, type, country, front_side_data: b64(png(8, 8, type)) } });
  expect((await up('PHOTO_ID', 1, 'FRA')).status).toBe(201);
  if (flow === 'default') expect((await up('PROOF_OF_ADDRESS', 4, 'USA')).status).toBe(201);
}

/** Every page of a list, following `links.next`; checks that each page reports the same total. */
async function listAll(query: string, flow?: string): Promise<{ ids: string[]; total: number; first: ApiResponse }> {
  const base = `/api/v1/${flow ? `${flow}/` : ''}verifications`;
  const first = await api('GET', `${base}?${query}`);
  expect(first.status).toBe(200);
  const ids: string[] = first.body.data.map((v: { id: string }) => v.id);
  let next: string | null = first.body.links.next;
  while (next) {
    const res = await api('GET', new URL(next).pathname + new URL(next).search);
    expect(res.body.meta.total).toBe(first.body.meta.total);
    ids.push(...res.body.data.map((v: { id: string }) => v.id));
    next = res.body.links.next;
  }
  return { ids, total: first.body.meta.total, first };
}

/** The status of every live verification, read one by one (Get Verification), as the truth the lists must match. */
async function truth(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [id, flow] of live) {
    const v = (await api('GET', `/api/v1/${flow}/verifications/${id}`)).body.data;
    out.set(id, STATUSES.find((s) => LABELS[s] === v.status_label)!);
  }
  return out;
}

/** For every status, in all flows and in each flow: the exact total, and exactly the matching ids, newest first. */
async function expectExactCounts(): Promise<Map<string, number>> {
  const statuses = await truth();
  for (const status of STATUSES) {
    for (const flow of [undefined, ...FLOWS]) {
      const expected = [...statuses].filter(([id, s]) => s === status && (!flow || live.get(id) === flow)).map(([id]) => id).sort().reverse();
      const { ids, total } = await listAll(`status=${status}`, flow);
      expect({ status, flow, total, ids }).toEqual({ status, flow, total: expected.length, ids: expected });
    }
  }
  // The unfiltered lists stay exact too.
  for (const flow of [undefined, ...FLOWS]) {
    expect((await listAll('', flow)).total).toBe([...live.values()].filter((f) => !flow || f === flow).length);
  }
  return statuses;
}

describe('List Verifications: status filter with exact counts through every transition', () => {
  it('keeps per-status totals exact across create, submit, processing, approve, reject, cancel, set status, expiry, delete and purge', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await create(i % 2 ? 'photo-id' : 'default', `Given${i}`, `Family${i}`, `count-${i}`));
    // Enough Started ones in one flow for a second page of status=1.
    for (let i = 0; i < 16; i++) await create('photo-id', `Many${i}`, 'Started', `many-${i}`);
    await expectExactCounts();

    // Submit → Submitted, then processing ends in Approved, Rejected or Double Check.
    for (const id of ids.slice(0, 6)) {
      await uploadAll(live.get(id)!, id);
      expect((await api('PUT', `/api/v1/${live.get(id)}/verifications/${id}/submit`)).status).toBe(200);
    }
    await t.h.runtime.idle();
    const afterRuns = await expectExactCounts();
    expect(ids.slice(0, 6).every((id) => [3, 4, 5].includes(afterRuns.get(id)!))).toBe(true);

    const at = (id: string) => `/api/v1/${live.get(id)}/verifications/${id}`;
    // Approve then reject one, reject then approve another (whatever processing decided).
    if (afterRuns.get(ids[0]!) !== 3) expect((await api('PUT', `${at(ids[0]!)}/approve`, action)).status).toBe(200);
    expect((await api('PUT', `${at(ids[0]!)}/reject`, action)).status).toBe(200);
    if (afterRuns.get(ids[1]!) !== 4) expect((await api('PUT', `${at(ids[1]!)}/reject`, action)).status).toBe(200);
    expect((await api('PUT', `${at(ids[1]!)}/approve`, action)).status).toBe(200);
    const approvable = ids[1]!;
    expect((await api('PUT', `${at(ids[2]!)}/cancel`, action)).status).toBe(200);
    expect((await api('PATCH', at(ids[3]!), { status: 8, ...action })).status).toBe(200);
    // Double Check by hand restarts processing, which moves it again.
    expect((await api('PATCH', at(ids[4]!), { status: 5, ...action })).status).toBe(200);
    // Resubmit: any status but Canceled → Submitted, then processing.
    expect((await api('PUT', `${at(ids[5]!)}/resubmit`, action)).status).toBe(200);
    await t.h.runtime.idle();
    await expectExactCounts();

    // Expiry job: Started → Expired.
    const past = '2000-01-01T00:00:00.000000Z';
    await t.h.runtime.doc.send(
      new UpdateCommand({
        TableName: 'idv-local',
        Key: keys.verification(ids[6]!),
        UpdateExpression: 'SET expires_at = :p, #sk = :sk',
        ExpressionAttributeNames: { '#sk': 'GSI3SK' },
        ExpressionAttributeValues: { ':p': past, ':sk': keys.startedUntil(past, ids[6]!).GSI3SK },
      }),
    );
    expect((await t.h.runtime.expireNow()).expired).toBe(1);
    await expectExactCounts();

    // Delete (soft) takes it out of its status list and counters at once; purge changes nothing more.
    for (const id of [ids[6]!, ids[7]!, approvable]) {
      expect((await api('DELETE', at(id))).status).toBe(204);
      live.delete(id);
    }
    await expectExactCounts();
    await t.h.runtime.doc.send(
      new UpdateCommand({
        TableName: 'idv-local',
        Key: keys.verification(ids[7]!),
        UpdateExpression: 'SET #sk = :sk',
        ExpressionAttributeNames: { '#sk': 'GSI3SK' },
        ExpressionAttributeValues: { ':sk': keys.purgeAt(past, ids[7]!).GSI3SK },
      }),
    );
    expect((await t.h.runtime.purgeNow()).purged).toBe(1);
    const final = await expectExactCounts();
    // Pages past the first of a filtered list: a second page exists and links keep the filter.
    const started = await listAll('status=1', 'photo-id');
    expect(started.total).toBeGreaterThan(15);
    expect(started.first.body.links.next).toContain('status=1&page=2');
    expect([...final.values()]).toEqual(expect.arrayContaining([1, 4, 7, 8]));
  }, 240_000);
});

describe('List Verifications: search', () => {
  let annan: string;
  let zoe: string;
  let other: string;
  beforeAll(async () => {
    annan = await create('default', 'Ann', 'Annan', 'CRM-0042');
    zoe = await create('photo-id', 'Zoë', 'Ångström', 'crm-0043');
    other = await create('photo-id', 'Grace', 'Hopper', 'other-1');
  });

  const found = async (query: string, flow?: string) => {
    const { ids, total } = await listAll(query, flow);
    expect(total).toBe(ids.length);
    return ids;
  };

  it('finds by vendor reference prefix, without case', async () => {
    expect(await found('search=crm-004')).toEqual([zoe, annan]);
    expect(await found('search=CRM-0042')).toEqual([annan]);
  });

  it('finds by id (exact or prefix, any case) and by name in either order, without accents', async () => {
    expect(await found(`search=${zoe.toLowerCase()}`)).toEqual([zoe]);
    expect(await found('search=zoe')).toEqual([zoe]);
    expect(await found(`search=${encodeURIComponent('angstrom zo')}`)).toEqual([zoe]);
    expect(await found(`search=${encodeURIComponent('  Grace   HOP ')}`)).toEqual([other]);
  });

  it('counts a verification matched by two terms once', async () => {
    // "ann" is a prefix of "ann annan" and of "annan ann".
    expect(await found('search=ann')).toEqual([annan]);
  });

  it('combines with the flow and the status, and forgets deleted verifications', async () => {
    expect(await found('search=crm', 'photo-id')).toEqual([zoe]);
    expect(await found('search=crm&status=1')).toEqual([zoe, annan]);
    expect(await found('search=crm&status=7')).toEqual([]);
    expect((await api('PUT', `/api/v1/photo-id/verifications/${zoe}/cancel`, action)).status).toBe(200);
    expect(await found('search=crm&status=7')).toEqual([zoe]);
    expect((await api('DELETE', `/api/v1/photo-id/verifications/${zoe}`)).status).toBe(204);
    live.delete(zoe);
    expect(await found('search=crm')).toEqual([annan]);
  });

  it('follows a change of the reference or the name', async () => {
    expect((await api('PATCH', `/api/v1/photo-id/verifications/${other}`, { vendor_reference: 'renamed-9', person: { last_name: 'Murray' } })).status).toBe(200);
    expect(await found('search=other-1')).toEqual([]);
    expect(await found('search=renamed')).toEqual([other]);
    expect(await found('search=grace mur')).toEqual([other]);
    expect(await found('search=hopper')).toEqual([]);
  });

  it.each([
    ['status=9', 'status must be an integer from 1 to 8'],
    ['status=Approved', 'status must be an integer from 1 to 8'],
    ['search=a', 'search must be 2 to 100 characters'],
    [`search=${'x'.repeat(101)}`, 'search must be 2 to 100 characters'],
  ])('answers 400 to %s', async (query, message) => {
    const res = await api('GET', `/api/v1/verifications?${query}`);
    expect(res).toMatchObject({ status: 400, body: { message } });
  });
});

describe('backfill of verifications written before the status lists', () => {
  it('gives them their list entries and sets every status counter exactly', async () => {
    const { DeleteCommand, PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { backfillListEntries } = await import('../../src/adapters/dynamodb/list-backfill');
    const { SEARCH_KINDS } = await import('../../src/adapters/dynamodb/keys');
    const old = await create('photo-id', 'Old', 'Timer', 'legacy-1');
    // As written before GSI4: no lookup key on the item, no entries, no status counters (and one counter off).
    await t.h.runtime.doc.send(new UpdateCommand({ TableName: 'idv-local', Key: keys.verification(old), UpdateExpression: 'REMOVE GSI4PK, GSI4SK' }));
    for (const key of [keys.flowStatusEntry(old), ...SEARCH_KINDS.map((k) => keys.searchEntry(old, k))]) await t.h.runtime.doc.send(new DeleteCommand({ TableName: 'idv-local', Key: key }));
    for (let shard = 0; shard < COUNTER_SHARDS; shard++) {
      await t.h.runtime.doc.send(new DeleteCommand({ TableName: 'idv-local', Key: keys.flowStatusCounter('photo-id', 1, shard) }));
    }
    await t.h.runtime.doc.send(new PutCommand({ TableName: 'idv-local', Item: { ...keys.statusCounter(6), ...keys.byStatus(6, keys.COUNTER_SORT), entity: 'counter', total: 99 } }));
    expect((await listAll('search=legacy')).ids).toEqual([]);

    const done = await backfillListEntries(t.h.runtime.doc, 'idv-local');
    expect(done.verifications).toBe(live.size);
    await expectExactCounts();
    expect((await listAll('search=legacy')).ids).toEqual([old]);
    // Idempotent.
    await backfillListEntries(t.h.runtime.doc, 'idv-local');
    await expectExactCounts();
  }, 120_000);
});

describe('concurrent writes', () => {
  // Every Create and every status change moves list counters in its transaction; with one item per
  // counter, concurrent transactions conflicted on it and Creates failed with 503 under load.
  it('takes 30 Creates and then 15 Cancels at once, every one succeeding, with the counts exact', async () => {
    const created = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const flow = i % 3 === 0 ? 'default' : 'photo-id';
        const body = flow === 'default' ? { ...defaultBody(), vendor_reference: `burst-${i}` } : { vendor_reference: `burst-${i}`, person: { first_name: 'Burst', last_name: `N${i}` } };
        const res = await api('POST', `/api/v1/${flow}/verifications`, body);
        return { status: res.status, id: res.body.data?.id as string, flow };
      }),
    );
    expect(created.map((c) => c.status)).toEqual(created.map(() => 201));
    for (const c of created) live.set(c.id, c.flow);
    // The all-flows counter is spread over shards (30 ids over 16 shards: fewer than 8 used is ~1e-9 likely).
    const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
    const shards = await t.h.runtime.doc.send(
      new QueryCommand({ TableName: 'idv-local', KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.allCounter().PK }, ConsistentRead: true }),
    );
    expect(shards.Items!.length).toBeGreaterThanOrEqual(8);
    const canceled = await Promise.all(created.slice(0, 15).map((c) => api('PUT', `/api/v1/${c.flow}/verifications/${c.id}/cancel`, action)));
    expect(canceled.map((r) => r.status)).toEqual(canceled.map(() => 200));
    await expectExactCounts();
  }, 120_000);
});
