import { normalizeName } from '../../src/domain/rules';
import type { ListEntry, ListSnapshot, ScreenedPerson, ScreeningPolicy, ScreeningResult } from '../../src/domain/screening/types';
import type { SnapshotStore, StoredSnapshot } from '../../src/ports/screening-snapshots';
import type { DomainEvent } from '../../src/events/events';
import { ConflictError, InvalidStateError } from '../../src/domain/errors';
import type { ListChanges, SanctionsScreener } from '../../src/ports/screening';
import type { ClearanceChange, ScreenedRecord, ScreeningClearance, ScreeningStore } from '../../src/ports/screening-store';
import type { InMemoryStore } from './in-memory';

const DAY = 86_400_000;

/**
 * A screener for use-case tests: an entry is a hit when its name, token-sorted and folded, equals
 * the person's (0.9, 0.97 with the same date of birth); a list older than the policy's age is
 * `not_evaluated`, one not loaded is missing. The real matcher is tested on its own.
 */
export class FakeScreener implements SanctionsScreener {
  screened: ScreenedPerson[] = [];
  constructor(
    public entries: ListEntry[],
    public asOf: Record<string, string> = { 'un-sc': '2026-01-01', 'ofac-sdn': '2026-01-01' },
  ) {}

  async screen(person: ScreenedPerson, policy: ScreeningPolicy, now: Date): Promise<ScreeningResult> {
    this.screened.push(person);
    const lists = policy.lists.filter((l) => this.asOf[l] !== undefined).map((l) => ({ list: l, asOf: this.asOf[l] as string }));
    const missing = policy.lists.find((l) => this.asOf[l] === undefined);
    if (missing) return { status: 'not_evaluated', reason: 'missing_list', lists, message: `list ${missing} is not loaded` };
    const stale = lists.find((l) => now.getTime() - Date.parse(l.asOf) > policy.maxAgeDays * DAY);
    if (stale) return { status: 'not_evaluated', reason: 'stale_list', lists, message: `list ${stale.list} is older than ${policy.maxAgeDays} days (${stale.asOf})` };
    const name = normalizeName(person.fullName || `${person.firstName ?? ''} ${person.lastName ?? ''}`);
    const hits = this.entries
      .filter((e) => policy.lists.includes(e.list) && e.names.some((n) => normalizeName(n.full) === name))
      .map((e) => {
        const dob = e.datesOfBirth.some((d) => 'exact' in d && d.exact === person.dateOfBirth);
        return {
          list: e.list,
          entry: e.id,
          reference: e.reference,
          name: e.names[0]?.full ?? '',
          programmes: e.programmes,
          score: dob ? 0.97 : 0.9,
          reasons: ['every name part matched exactly', ...(dob ? ['date of birth matches exactly (+0.07)'] : [])],
        };
      });
    return { status: 'screened', lists, best: Math.max(0, ...hits.map((h) => h.score)), hits };
  }

  async loaded() {
    return Object.entries(this.asOf).map(([list, asOf]) => ({ list, asOf, entries: this.entries.filter((e) => e.list === list).length }));
  }
}

/** A fake changes screener: a FakeScreener over the changed entries, dated by the changes. */
export const fakeChangesScreener = (changes: readonly ListChanges[]): SanctionsScreener =>
  new FakeScreener(changes.flatMap((c) => c.changed), Object.fromEntries(changes.map((c) => [c.list, c.asOf])));

/** A listed person as the lists give one. */
export function listedPerson(list: string, id: string, name: string, dateOfBirth?: string): ListEntry {
  return {
    list,
    id,
    reference: list === 'un-sc' ? `QDi.${id}` : id,
    kind: 'person',
    names: [{ full: name, kind: 'primary', quality: 'strong' }],
    datesOfBirth: dateOfBirth ? [{ exact: dateOfBirth }] : [],
    placesOfBirth: [],
    nationalities: [],
    documents: [],
    programmes: list === 'un-sc' ? ['Al-Qaida'] : ['SDGT'],
  };
}

/** The screening store over the in-memory repository: a clearance commits with its history and version like the table's transaction. */
export class InMemoryScreeningStore implements ScreeningStore {
  cleared = new Map<string, ScreeningClearance[]>();
  records = new Map<string, ScreenedRecord>();
  alerted = new Map<string, { list: string; entry: string; asOf: string }[]>();
  constructor(private readonly store: InMemoryStore) {}

  async clearances(verificationId: string) {
    return structuredClone(this.cleared.get(verificationId) ?? []);
  }

  async clear(change: ClearanceChange) {
    const mine = this.cleared.get(change.verification.id) ?? [];
    if (mine.some((c) => c.list === change.clearance.list && c.entry === change.clearance.entry)) throw new InvalidStateError('already cleared');
    const current = this.store.verifications.get(change.verification.id);
    if (!current || current.version !== change.expectedVersion) throw new ConflictError();
    this.store.verifications.set(change.verification.id, structuredClone(change.verification));
    if (change.document) this.store.docs.set(change.document.id, structuredClone(change.document));
    this.store.history.set(change.verification.id, [...(this.store.history.get(change.verification.id) ?? []), structuredClone(change.history)]);
    this.cleared.set(change.verification.id, [...mine, structuredClone(change.clearance)]);
  }

  async recordScreened(record: ScreenedRecord) {
    this.records.set(record.verificationId, structuredClone(record));
  }

  async screened(flow: string, cursor?: string) {
    const all = [...this.records.values()].filter((r) => r.flow === flow).sort((a, b) => a.verificationId.localeCompare(b.verificationId));
    const start = cursor ? Number(cursor) : 0;
    const page = all.slice(start, start + 2);
    return { records: structuredClone(page), ...(start + 2 < all.length && { cursor: String(start + 2) }) };
  }

  async alerts(verificationId: string) {
    return structuredClone(this.alerted.get(verificationId) ?? []);
  }

  async alert(verificationId: string, hit: { list: string; entry: string }, asOf: string, event: DomainEvent) {
    const mine = this.alerted.get(verificationId) ?? [];
    if (mine.some((a) => a.list === hit.list && a.entry === hit.entry && a.asOf === asOf)) return false;
    this.alerted.set(verificationId, [...mine.filter((a) => !(a.list === hit.list && a.entry === hit.entry)), { list: hit.list, entry: hit.entry, asOf }]);
    this.store.outboxRows.set(event.detail.id, structuredClone(event));
    return true;
  }
}

/** Snapshots kept in memory, each put a new version. */
export class InMemorySnapshots implements SnapshotStore {
  versions: { stored: StoredSnapshot; snapshot: ListSnapshot; files: Record<string, string> }[] = [];
  async newest(list: string) {
    return [...this.versions].reverse().find((v) => v.stored.list === list)?.stored;
  }
  async read(stored: StoredSnapshot) {
    const found = this.versions.find((v) => v.stored.key === stored.key);
    if (!found) throw new Error(`no snapshot ${stored.key}`);
    return structuredClone(found.snapshot);
  }
  async put(snapshot: ListSnapshot, files: Readonly<Record<string, string>>, storedAt: string) {
    const stored = { list: snapshot.list, asOf: snapshot.asOf, entries: snapshot.entries.length, storedAt, key: `${snapshot.list}/${this.versions.length + 1}` };
    this.versions.push({ stored, snapshot: structuredClone(snapshot), files: { ...files } });
    return stored;
  }
}

/** New or changed entries by id (the fakes' stand-in for diffSnapshots). */
export function diffById(previous: ListSnapshot | undefined, next: ListSnapshot) {
  const before = new Map((previous?.entries ?? []).map((e) => [e.id, JSON.stringify(e)]));
  return { list: next.list, asOf: next.asOf, changed: next.entries.filter((e) => before.get(e.id) !== JSON.stringify(e)) };
}
