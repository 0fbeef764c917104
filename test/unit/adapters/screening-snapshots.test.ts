import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { S3SnapshotStore } from '../../../src/adapters/s3/screening-snapshots';
import { SnapshotScreener } from '../../../src/adapters/s3/snapshot-screener';
import { FileScreener } from '../../../src/adapters/screening/file-screener';
import type { ListSnapshot } from '../../../src/domain/screening/types';
import { InMemorySnapshots, listedPerson } from '../../fakes/screening';

/** The little of a GetObject body the store reads. */
const body = (text: string) => ({ transformToString: async () => text }) as never;
const snapshot = (asOf: string, names: string[]): ListSnapshot => ({ list: 'un-sc', asOf, entries: names.map((n, i) => listedPerson('un-sc', String(9000 + i), n, '1966-07-30')) });
const POLICY = { lists: ['un-sc'], threshold: 0.85, maxAgeDays: 7 };

describe('S3SnapshotStore', () => {
  const s3 = mockClient(S3Client);
  beforeEach(() => s3.reset());

  it('stores the publisher\'s files and the parsed snapshot under a new version folder, then moves the pointer, in that order', async () => {
    s3.on(PutObjectCommand).resolves({});
    const stored = await new S3SnapshotStore(new S3Client({}), 'lists-bucket').put(snapshot('2026-11-20', ['Ada Lovelace']), { xml: '<x/>' }, '2026-11-27T06:00:00.000000Z');
    const keys = s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input.Key);
    expect(keys).toEqual(['lists/un-sc/2026-11-20/20261127T060000000000Z/source-xml', 'lists/un-sc/2026-11-20/20261127T060000000000Z/snapshot.json', 'lists/un-sc/newest.json']);
    expect(stored).toEqual({ list: 'un-sc', asOf: '2026-11-20', entries: 1, storedAt: '2026-11-27T06:00:00.000000Z', key: 'lists/un-sc/2026-11-20/20261127T060000000000Z/snapshot.json' });
    expect(JSON.parse(String(s3.commandCalls(PutObjectCommand)[2]?.args[0].input.Body))).toEqual(stored);
  });

  it('answers no newest snapshot when the pointer is missing, and rethrows any other failure (an outage is not "none yet")', async () => {
    s3.on(GetObjectCommand).rejects(Object.assign(new Error('missing'), { name: 'NoSuchKey' }));
    await expect(new S3SnapshotStore(new S3Client({}), 'b').newest('un-sc')).resolves.toBeUndefined();
    s3.reset();
    s3.on(GetObjectCommand).rejects(Object.assign(new Error('denied'), { name: 'AccessDenied' }));
    await expect(new S3SnapshotStore(new S3Client({}), 'b').newest('un-sc')).rejects.toThrow('denied');
  });

  it('reads the newest pointer and the snapshot it names', async () => {
    const stored = { list: 'un-sc', asOf: '2026-11-20', entries: 1, storedAt: 'x', key: 'lists/un-sc/k/snapshot.json' };
    s3.on(GetObjectCommand, { Key: 'lists/un-sc/newest.json' }).resolves({ Body: body(JSON.stringify(stored)) });
    s3.on(GetObjectCommand, { Key: stored.key }).resolves({ Body: body(JSON.stringify(snapshot('2026-11-20', ['Ada Lovelace']))) });
    const store = new S3SnapshotStore(new S3Client({}), 'b');
    expect(await store.newest('un-sc')).toEqual(stored);
    expect((await store.read(stored)).entries[0]?.names[0]?.full).toBe('Ada Lovelace');
  });
});

describe('SnapshotScreener (the deployed pipeline\'s lists)', () => {
  const now = new Date('2026-11-22T00:00:00Z');

  it('says missing_list (not evaluated) for a list never stored, never "no hit"', async () => {
    const screener = new SnapshotScreener(new InMemorySnapshots(), (all) => new FileScreener(all));
    expect(await screener.screen({ firstName: 'Ada', lastName: 'Lovelace' }, POLICY, now)).toMatchObject({ status: 'not_evaluated', reason: 'missing_list' });
  });

  it('screens with the newest stored snapshot, and moves to a newer one once its pointer is checked again (15 minutes)', async () => {
    const store = new InMemorySnapshots();
    await store.put(snapshot('2026-11-20', ['Zakhar Pustovalov']), {}, '2026-11-20T00:00:00Z');
    let clock = 0;
    let built = 0;
    const screener = new SnapshotScreener(store, (all) => ((built += 1), new FileScreener(all)), () => clock);
    const ada = { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '1966-07-30' };
    expect(await screener.screen(ada, POLICY, now)).toMatchObject({ status: 'screened', hits: [] });
    await store.put(snapshot('2026-11-21', ['Zakhar Pustovalov', 'Ada Lovelace']), {}, '2026-11-21T00:00:00Z');
    expect(await screener.screen(ada, POLICY, now)).toMatchObject({ hits: [] });
    clock += 15 * 60_000;
    const result = await screener.screen(ada, POLICY, now);
    expect(result.status === 'screened' && result.hits[0]?.entry).toBe('9001');
    expect(built).toBe(2);
    expect(await screener.loaded()).toEqual([{ list: 'un-sc', asOf: '2026-11-21', entries: 2 }]);
  });
});
