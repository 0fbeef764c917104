import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { entrySize, EventBridgePublisher, PUT_EVENTS_LIMITS, putEventsEntry } from '../../../src/adapters/eventbridge/event-publisher';
import type { DomainEvent } from '../../../src/events/events';
import { type PublishFailure, UnpublishedEventsError } from '../../../src/ports/outbox';

const eb = mockClient(EventBridgeClient);
beforeEach(() => eb.reset());

const BUS = 'idv-bus';
const base = (i: number, pad: string): DomainEvent => ({
  type: 'VerificationFinished',
  detail: { id: `evt_${i}`, type: 'VerificationFinished', created_at: '2026-01-01T00:00:00.000Z', flow: 'default', data: { pad } },
});
/** An event whose PutEvents entry is exactly `bytes` long, as EventBridge counts it. */
const sized = (i: number, bytes: number): DomainEvent => base(i, 'x'.repeat(bytes - entrySize(putEventsEntry(base(i, ''), BUS))));

const failuresOf = async (promise: Promise<void>): Promise<readonly PublishFailure[]> => {
  try {
    await promise;
    return [];
  } catch (error) {
    if (error instanceof UnpublishedEventsError) return error.failures;
    throw error;
  }
};
const sentIds = () => eb.commandCalls(PutEventsCommand).map((c) => c.args[0].input.Entries!.map((e) => (JSON.parse(e.Detail!) as { id: string }).id));
const ok = (n: number) => ({ FailedEntryCount: 0, Entries: Array.from({ length: n }, (_, i) => ({ EventId: `eb-${i}` })) });

describe('EventBridgePublisher: requests within PutEvents limits', () => {
  const publisher = () => new EventBridgePublisher(new EventBridgeClient({}), BUS);

  it('counts an entry as EventBridge documents: UTF-8 bytes of Source, DetailType, Detail and Resources, 14 for Time', () => {
    expect(entrySize({ Source: 'idv.verifications', DetailType: 'VerificationFinished', Detail: '{"a":"é"}' })).toBe(17 + 20 + 10);
    expect(entrySize({ Source: 's', DetailType: 'd', Detail: '😀', Resources: ['arn:1', 'arn:22'], Time: new Date(), EventBusName: 'not counted' })).toBe(1 + 1 + 4 + 5 + 6 + 14);
    expect(entrySize(putEventsEntry(sized(1, 5000), BUS))).toBe(5000);
  });

  it('sends at most 10 entries a request', async () => {
    eb.on(PutEventsCommand).callsFake((input: { Entries: unknown[] }) => ok(input.Entries.length));
    await publisher().publish(Array.from({ length: 23 }, (_, i) => sized(i, 300)));
    expect(sentIds().map((ids) => ids.length)).toEqual([10, 10, 3]);
  });

  it('keeps the entries of one request within 256 KB together, in order', async () => {
    eb.on(PutEventsCommand).callsFake((input: { Entries: unknown[] }) => ok(input.Entries.length));
    const events = [100_000, 100_000, 62_144, 300, 200_000, 70_000].map((bytes, i) => sized(i, bytes));
    await publisher().publish(events);
    expect(sentIds()).toEqual([['evt_0', 'evt_1', 'evt_2'], ['evt_3', 'evt_4'], ['evt_5']]);
    for (const call of eb.commandCalls(PutEventsCommand)) expect(call.args[0].input.Entries!.reduce((n, e) => n + entrySize(e), 0)).toBeLessThanOrEqual(PUT_EVENTS_LIMITS.bytes);
  });

  it('does not send an entry over 256 KB, reports it as permanent, and publishes the rest of the batch', async () => {
    eb.on(PutEventsCommand).callsFake((input: { Entries: unknown[] }) => ok(input.Entries.length));
    const failures = await failuresOf(publisher().publish([sized(0, 300), sized(1, PUT_EVENTS_LIMITS.bytes + 1), sized(2, PUT_EVENTS_LIMITS.bytes), sized(3, 300)]));
    expect(failures).toEqual([{ eventId: 'evt_1', code: 'ValidationException', message: expect.stringContaining('262145 bytes'), permanent: true }]);
    expect(sentIds()).toEqual([['evt_0'], ['evt_2'], ['evt_3']]);
  });

  it('reports the entries EventBridge refused, by code, and only those', async () => {
    eb.on(PutEventsCommand).resolves({
      FailedEntryCount: 4,
      Entries: [
        { EventId: 'a' },
        { ErrorCode: 'ThrottlingException', ErrorMessage: 'slow down' },
        { ErrorCode: 'MalformedDetail', ErrorMessage: 'bad json' },
        { ErrorCode: 'InternalFailure' },
        { ErrorCode: 'AccessDeniedException' },
        { ErrorCode: 'InvalidArgument', ErrorMessage: 'bad entry' },
        { EventId: 'g' },
      ],
    });
    const failures = await failuresOf(publisher().publish(Array.from({ length: 7 }, (_, i) => sized(i, 300))));
    expect(failures).toEqual([
      { eventId: 'evt_1', code: 'ThrottlingException', message: 'slow down', permanent: false },
      { eventId: 'evt_2', code: 'MalformedDetail', message: 'bad json', permanent: true },
      { eventId: 'evt_3', code: 'InternalFailure', message: '', permanent: false },
      // A permission failure refuses every event alike: it is the deployment's fault, not the entry's.
      { eventId: 'evt_4', code: 'AccessDeniedException', message: '', permanent: false },
      { eventId: 'evt_5', code: 'InvalidArgument', message: 'bad entry', permanent: true },
    ]);
  });

  it('reports every entry of a request that failed as a whole as retryable, and still sends the next requests', async () => {
    eb.on(PutEventsCommand)
      .rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }))
      .callsFake((input: { Entries: unknown[] }) => ok(input.Entries.length));
    const failures = await failuresOf(publisher().publish(Array.from({ length: 12 }, (_, i) => sized(i, 300))));
    expect(failures.map((f) => [f.eventId, f.code, f.permanent])).toEqual(Array.from({ length: 10 }, (_, i) => [`evt_${i}`, 'ThrottlingException', false]));
    expect(sentIds().map((ids) => ids.length)).toEqual([10, 2]);
  });

  it('finds the entry at fault when EventBridge refuses a whole request as over the limit (each sent alone)', async () => {
    const tooLarge = Object.assign(new Error('Total size of the entries in the request is over the limit.'), { name: 'ValidationException' });
    eb.on(PutEventsCommand).rejectsOnce(tooLarge).resolvesOnce(ok(1)).rejectsOnce(tooLarge).resolvesOnce(ok(1));
    const failures = await failuresOf(publisher().publish([sized(0, 300), sized(1, 300), sized(2, 300)]));
    expect(failures).toEqual([{ eventId: 'evt_1', code: 'ValidationException', message: tooLarge.message, permanent: true }]);
    expect(sentIds()).toEqual([['evt_0', 'evt_1', 'evt_2'], ['evt_0'], ['evt_1'], ['evt_2']]);
  });

  it('throws nothing when everything was published', async () => {
    eb.on(PutEventsCommand).callsFake((input: { Entries: unknown[] }) => ok(input.Entries.length));
    await expect(publisher().publish([sized(0, 300)])).resolves.toBeUndefined();
    await expect(publisher().publish([])).resolves.toBeUndefined();
    expect(eb.commandCalls(PutEventsCommand)).toHaveLength(1);
  });
});
