import { diffSnapshots, loadList, screenAgainst, screenPerson } from '../../../../src/domain/screening/screen';
import { ScreeningIndex } from '../../../../src/domain/screening/matcher';
import type { ListEntry, ListSnapshot, ScreeningPolicy } from '../../../../src/domain/screening/types';

const entry = (id: string, full: string, more: Partial<ListEntry> = {}): ListEntry => ({
  list: 'test-list',
  id,
  reference: id,
  kind: 'person',
  names: [{ full, kind: 'primary', quality: 'strong' }],
  datesOfBirth: [],
  placesOfBirth: [],
  nationalities: [],
  documents: [],
  programmes: [],
  ...more,
});
const snapshot = (asOf: string, entries: ListEntry[]): ListSnapshot => ({ list: 'test-list', asOf, entries });
const policy: ScreeningPolicy = { lists: ['test-list'], threshold: 0.85, maxAgeDays: 7 };
const lists = (s: ListSnapshot) => new Map([[s.list, loadList(s)]]);

describe('screening: fail closed', () => {
  const s = snapshot('2026-11-20', [entry('1', 'Ostrava Quillfeather')]);

  it('screens against a fresh list', () => {
    const r = screenPerson(lists(s), { fullName: 'Ostrava Quillfeather' }, policy, new Date('2026-11-25T00:00:00Z'));
    expect(r).toMatchObject({ status: 'screened', best: 1, lists: [{ list: 'test-list', asOf: '2026-11-20' }] });
  });

  it('is not evaluated when the snapshot is older than max_age_days', () => {
    const r = screenPerson(lists(s), { fullName: 'Ostrava Quillfeather' }, policy, new Date('2026-11-28T00:00:01Z'));
    expect(r).toMatchObject({ status: 'not_evaluated', reason: 'stale_list' });
  });

  it('is not evaluated when a list the policy names is not loaded, and never returns empty hits then', () => {
    const r = screenPerson(lists(s), { fullName: 'Nobody' }, { ...policy, lists: ['test-list', 'un-sc'] }, new Date('2026-11-21'));
    expect(r).toMatchObject({ status: 'not_evaluated', reason: 'missing_list' });
    expect('hits' in r).toBe(false);
  });

  it('is not evaluated when the snapshot date is not a date', () => {
    const r = screenPerson(lists(snapshot('unknown', [])), { fullName: 'X Y' }, policy, new Date('2026-11-21'));
    expect(r).toMatchObject({ status: 'not_evaluated', reason: 'stale_list' });
  });
});

describe('screening: snapshot changes for re-screening', () => {
  it('gives the new and changed entries only', () => {
    const old = snapshot('2026-11-01', [entry('1', 'Ostrava Quillfeather'), entry('2', 'Haldor Brask-Tollevik'), entry('3', 'Removed Person')]);
    const next = snapshot('2026-11-20', [entry('1', 'Ostrava Quillfeather'), entry('2', 'Haldor Brask-Tollevik', { datesOfBirth: [{ year: 1958 }] }), entry('4', 'Zakhar Pustovalov')]);
    const changes = diffSnapshots(old, next);
    expect(changes).toMatchObject({ list: 'test-list', asOf: '2026-11-20' });
    expect(changes.changed.map((e) => e.id)).toEqual(['2', '4']);
    expect(diffSnapshots(undefined, next).changed).toHaveLength(3);
  });

  it('screens a person against the changed entries only, above the threshold', () => {
    const index = ScreeningIndex.build([entry('4', 'Zakhar Pustovalov')]);
    expect(screenAgainst(index, { fullName: 'Zakhar Pustovalov' }, 0.85).map((h) => h.entry)).toEqual(['4']);
    expect(screenAgainst(index, { fullName: 'Ostrava Quillfeather' }, 0.85)).toEqual([]);
  });
});
