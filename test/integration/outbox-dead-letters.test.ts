import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { indexes, keys } from '../../src/adapters/dynamodb/keys';
import { DynamoOutbox } from '../../src/adapters/dynamodb/outbox';
import { outboxToItem } from '../../src/adapters/dynamodb/mappers';
import type { DomainEvent } from '../../src/events/events';
import { LOCAL_TABLE } from '../../local/runtime';
import { useTestRuntime } from './harness';

/**
 * An event over EventBridge's 256 KB entry limit can never be published: the outbox job sets it aside
 * (out of the pending index, its reason kept on its row) and publishes the rest of its batch, instead
 * of retrying the whole batch every minute for ever. Against the local runtime: DynamoDB Local, the
 * local bus (which refuses an oversize entry as EventBridge does) and the job's own Lambda handler.
 */
describe('outbox: an event that can never be published is set aside, not retried for ever', () => {
  const t = useTestRuntime();
  const tenMinutesAgo = () => new Date(Date.now() - 600_000).toISOString();
  const event = (id: string, pad: number): DomainEvent => ({
    type: 'VerificationCanceled',
    detail: { id, type: 'VerificationCanceled', created_at: tenMinutesAgo(), flow: t.h.runtime.flows[0]!.path, data: { verification: { id: `ver_${id}` }, pad: 'x'.repeat(pad) } },
  });
  const row = async (id: string) => (await t.h.runtime.doc.send(new GetCommand({ TableName: LOCAL_TABLE, Key: keys.outbox(id), ConsistentRead: true }))).Item;

  it('publishes and removes the others of its batch, keeps the oversize one with its reason, and does not read it again', async () => {
    await t.h.runtime.idle();
    const events = [event('evt_small_a', 10), event('evt_oversize', 300_000), event('evt_small_b', 10)];
    for (const e of events) await t.h.runtime.doc.send(new PutCommand({ TableName: LOCAL_TABLE, Item: outboxToItem(e) }));
    const publish = jest.spyOn(t.h.runtime.bus, 'publish');

    expect(await t.h.runtime.publishPendingNow()).toEqual({ published: 2, setAside: 1 });

    // One batch: the oversize event did not hold back the two beside it.
    expect(publish.mock.calls.map(([batch]) => batch.map((e) => e.detail.id).sort())).toEqual([['evt_oversize', 'evt_small_a', 'evt_small_b']]);
    expect(await row('evt_small_a')).toBeUndefined();
    expect(await row('evt_small_b')).toBeUndefined();
    const dead = await row('evt_oversize');
    expect(dead).toMatchObject({ set_aside_code: 'ValidationException', set_aside_message: expect.stringContaining('over the limit'), detail: { id: 'evt_oversize' } });
    expect(dead?.[indexes.due.pk]).toBe(keys.outboxSetAsidePartition);

    // The next run finds nothing pending: the outbox is no longer blocked.
    publish.mockClear();
    expect(await t.h.runtime.publishPendingNow()).toEqual({ published: 0 });
    expect(publish).not.toHaveBeenCalled();
    publish.mockRestore();
  });

  it('leaves a row already published alone, and drops the detail of one too large to take its reason (the job never blocks)', async () => {
    const outbox = new DynamoOutbox(t.h.runtime.doc, LOCAL_TABLE);
    const reason = { code: 'ValidationException', message: 'Total size of the entries in the request is over the limit.' };
    await outbox.setAside([{ event: event('evt_gone', 10), ...reason }], tenMinutesAgo());
    expect(await row('evt_gone')).toBeUndefined();

    // The largest outbox row DynamoDB takes (found by bisection): its reason does not fit beside it.
    const fits = async (pad: number) =>
      t.h.runtime.doc.send(new PutCommand({ TableName: LOCAL_TABLE, Item: outboxToItem(event('evt_at_limit', pad)) })).then(
        () => true,
        () => false,
      );
    let [lo, hi] = [390_000, 410_000];
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await fits(mid)) lo = mid;
      else hi = mid;
    }
    const full = event('evt_at_limit', lo);
    expect(await fits(lo)).toBe(true);
    await outbox.setAside([{ event: full, ...reason }], tenMinutesAgo());
    const dead = await row('evt_at_limit');
    expect(dead).toMatchObject({ set_aside_code: reason.code, detail_dropped: true, type: 'VerificationCanceled' });
    expect(dead?.detail).toBeUndefined();
    expect(dead?.[indexes.due.pk]).toBe(keys.outboxSetAsidePartition);
  });
});
