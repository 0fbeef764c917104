import { createDocument } from '../../../src/app/create-document';
import { createVerification } from '../../../src/app/create-verification';
import { resubmitVerification } from '../../../src/app/resubmit-verification';
import { clearScreeningHit } from '../../../src/app/screening-clear';
import { submitVerification } from '../../../src/app/submit-verification';
import { evaluateDocument } from '../../../src/app/workflow/evaluate-document';
import { extractDocument } from '../../../src/app/workflow/extract-document';
import { finishRun } from '../../../src/app/workflow/finish-run';
import { screeningResult } from '../../../src/app/workflow/screening';
import { startRun } from '../../../src/app/workflow/start-run';
import { InvalidStateError, ValidationError } from '../../../src/domain/errors';
import { b64, png } from '../../fixtures/images';
import { fakeDeps, REQ } from '../../fakes/in-memory';
import { diffById, FakeScreener, fakeChangesScreener, InMemoryScreeningStore, InMemorySnapshots, listedPerson } from '../../fakes/screening';
import { refreshLists } from '../../../src/app/screening-refresh';
import { METRIC } from '../../../src/ports/metrics';
import type { ListEntry, ListSnapshot } from '../../../src/domain/screening/types';
import { rescreenApproved } from '../../../src/app/screening-rescreen';
import { replayVerification } from '../../../src/app/replay';
import type { ListChanges } from '../../../src/ports/screening';

const FLOW = 'kyc-screened';
const LISTED = listedPerson('un-sc', '6908555', 'Ivan Petrovsky', '1971-03-04');
const OTHER = listedPerson('ofac-sdn', '36123', 'Ivan Petrovsky');
const ACTOR = { comment: 'Another person: different nationality and passport', email: 'reviewer@example.com' };

function setup(screener: FakeScreener | null = new FakeScreener([LISTED])) {
  const f = fakeDeps();
  const screenings = new InMemoryScreeningStore(f.store);
  const deps = { ...f.deps, screenings, ...(screener && { screener }) };
  return { ...f, deps, screenings, screener };
}

type Setup = ReturnType<typeof setup>;

async function verify(s: Setup, read: { given_names: string; surname: string; date_of_birth?: string }, expected = { first_name: read.given_names, last_name: read.surname }) {
  const v = await createVerification(s.deps, REQ, FLOW, { person: expected });
  const photo = png(4, 4, 1, { person: { ...read, date_of_birth: read.date_of_birth ?? '1971-03-04' }, document: { expiration_date: '2031-01-01', number: 'P1234567', country_code: 'RUS' } });
  await createDocument(s.deps, FLOW, { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'RUS', front_side_data: b64(photo) } });
  await submitVerification(s.deps, REQ, FLOW, v.id);
  return v.id;
}

async function run(s: Setup, id: string, number: number) {
  const [item] = (await startRun(s.deps, { verificationId: id, run: number })).items;
  await extractDocument(s.deps, item!);
  await evaluateDocument(s.deps, item!);
  const finished = await finishRun(s.deps, { verificationId: id, run: number });
  const doc = s.store.docs.get(item!.documentId)!;
  return { status: finished.status, rule: doc.rules?.results.find((r) => r.name === 'person.screening'), doc };
}

describe('person.screening in the pipeline', () => {
  it('sends a listed person to Double Check with the entry, list, programmes, score and reasons in the rule result', async () => {
    const s = setup();
    const id = await verify(s, { given_names: 'Ivan', surname: 'Petrovsky' });
    const { status, rule } = await run(s, id, 1);
    expect(status).toBe('Double Check');
    expect(rule).toMatchObject({ result: 'review', score: 0.97, threshold: 'review >= 0.83', source: 'screening' });
    expect(rule?.hits).toEqual([{ list: 'un-sc', entry: '6908555', reference: 'QDi.6908555', name: 'Ivan Petrovsky', programmes: ['Al-Qaida'], score: 0.97, reasons: ['every name part matched exactly', 'date of birth matches exactly (+0.07)'] }]);
    expect(rule?.reason).toContain('QDi.6908555');
    // The read person, with the nationality of the issuing country and the passport number.
    expect(s.screener?.screened[0]).toMatchObject({ firstName: 'Ivan', lastName: 'Petrovsky', dateOfBirth: '1971-03-04', nationality: 'RU', documentNumbers: ['P1234567'] });
  });

  it('approves a person on no list, saying what was screened', async () => {
    const s = setup();
    const id = await verify(s, { given_names: 'Ada', surname: 'Lovelace' });
    const { status, rule } = await run(s, id, 1);
    expect(status).toBe('Approved');
    expect(rule).toMatchObject({ result: 'passed', extracted: 'no hit' });
    expect(rule?.reason).toContain('un-sc as of 2026-01-01');
    expect(rule?.hits).toBeUndefined();
  });

  it('screens the expected person too when the name read differs: a misread does not hide a listed person', async () => {
    const s = setup();
    const id = await verify(s, { given_names: 'Ivan', surname: 'Petrovskv' }, { first_name: 'Ivan', last_name: 'Petrovsky' });
    const { status, rule } = await run(s, id, 1);
    expect(status).toBe('Double Check');
    expect(rule?.hits?.[0]?.entry).toBe('6908555');
    expect(s.screener?.screened).toHaveLength(2);
  });

  it('fails closed: a list older than max_age_days is not evaluated and sends to review, never approval', async () => {
    const s = setup(new FakeScreener([LISTED], { 'un-sc': '2025-01-01', 'ofac-sdn': '2026-01-01' }));
    const id = await verify(s, { given_names: 'Ada', surname: 'Lovelace' });
    const { status, rule } = await run(s, id, 1);
    expect(status).toBe('Double Check');
    expect(rule).toMatchObject({ result: 'not_evaluated', required: true, extracted: 'stale_list' });
    expect(rule?.reason).toContain('older than 7 days');
  });

  it('fails closed without a screener (a deployment with no lists loaded)', async () => {
    const s = setup(null);
    const id = await verify(s, { given_names: 'Ada', surname: 'Lovelace' });
    const { status, rule } = await run(s, id, 1);
    expect(status).toBe('Double Check');
    expect(rule).toMatchObject({ result: 'not_evaluated', required: true });
  });

  it('records the people screened for the re-screen job (the flow re-screens)', async () => {
    const s = setup();
    const id = await verify(s, { given_names: 'Ada', surname: 'Lovelace' });
    await run(s, id, 1);
    expect(s.screenings.records.get(id)).toMatchObject({ flow: FLOW, people: [{ firstName: 'Ada', lastName: 'Lovelace' }] });
  });
});

describe('clearing a screening hit', () => {
  it('records the clearance in history, marks the hit, and a re-run keeps it cleared while another entry still raises', async () => {
    const s = setup();
    const id = await verify(s, { given_names: 'Ivan', surname: 'Petrovsky' });
    await run(s, id, 1);
    const answer = await clearScreeningHit(s.deps, REQ, FLOW, id, { ...ACTOR, list: 'un-sc', entry: '6908555' });
    expect(answer.status_label).toBe('Double Check');
    const history = s.store.history.get(id)!.at(-1)!;
    expect(history).toMatchObject({ user: 'reviewer@example.com', fromStatus: 5, toStatus: 5 });
    expect(history.comment).toContain('un-sc entry 6908555');
    expect(history.comment).toContain(ACTOR.comment);
    const photo = answer.documents[0]!;
    const rule = photo.rules?.results.find((r) => r.name === 'person.screening');
    expect(rule).toMatchObject({ result: 'passed' });
    expect(rule?.hits?.[0]?.cleared).toMatchObject({ user: 'reviewer@example.com', comment: ACTOR.comment });

    await resubmitVerification(s.deps, REQ, FLOW, id, { comment: 'again', email: 'reviewer@example.com' });
    const again = await run(s, id, 2);
    expect(again.status).toBe('Approved');
    expect(again.rule).toMatchObject({ result: 'passed', extracted: '1 cleared hit(s)' });

    // A new entry for the same name (another list) is raised again.
    s.screener!.entries.push(OTHER);
    await resubmitVerification(s.deps, REQ, FLOW, id, { comment: 'again', email: 'reviewer@example.com' });
    const third = await run(s, id, 3);
    expect(third.status).toBe('Double Check');
    expect(third.rule?.hits?.map((h) => [h.entry, h.cleared !== undefined])).toEqual([
      ['6908555', true],
      ['36123', false],
    ]);
  });

  it('refuses an entry that is not a hit of the verification (422) and a hit already cleared (400)', async () => {
    const s = setup();
    const id = await verify(s, { given_names: 'Ivan', surname: 'Petrovsky' });
    await run(s, id, 1);
    await expect(clearScreeningHit(s.deps, REQ, FLOW, id, { ...ACTOR, list: 'un-sc', entry: '1' })).rejects.toBeInstanceOf(ValidationError);
    await clearScreeningHit(s.deps, REQ, FLOW, id, { ...ACTOR, list: 'un-sc', entry: '6908555' });
    await expect(clearScreeningHit(s.deps, REQ, FLOW, id, { ...ACTOR, list: 'un-sc', entry: '6908555' })).rejects.toBeInstanceOf(InvalidStateError);
  });
});

describe('re-screening approved verifications against a new snapshot', () => {
  const ADA = listedPerson('un-sc', '7000001', 'Ada Lovelace', '1971-03-04');
  const changes = (entries = [ADA]) => [{ list: 'un-sc', asOf: '2026-01-02', changed: entries }];

  async function approvedAda(s: Setup) {
    const id = await verify(s, { given_names: 'Ada', surname: 'Lovelace' });
    expect((await run(s, id, 1)).status).toBe('Approved');
    return id;
  }

  it('publishes ScreeningHit naming the verification and the entry when a new snapshot adds the person, once per snapshot', async () => {
    const s = setup();
    const id = await approvedAda(s);
    const report = await rescreenApproved(s.deps, changes(), fakeChangesScreener);
    expect(report).toEqual({ flows: ['kyc-screened'], people: 1, hits: 1, published: 1 });
    const published = s.events.published.filter((e) => e.type === 'ScreeningHit');
    expect(published).toHaveLength(1);
    expect(published[0]?.detail).toMatchObject({
      flow: 'kyc-screened',
      data: { verification_id: id, entry: { list: 'un-sc', entry: '7000001', reference: 'QDi.7000001', programmes: ['Al-Qaida'] }, score: 0.97, snapshot: '2026-01-02' },
    });
    // The outbox row was removed once published.
    expect([...s.store.outboxRows.values()].filter((e) => e.type === 'ScreeningHit')).toEqual([]);
    // The same snapshot again (a repeated run): nothing published twice.
    expect((await rescreenApproved(s.deps, changes(), fakeChangesScreener)).published).toBe(0);
  });

  it('passes over each person once against the changed entries alone, and skips cleared entries and verifications not approved', async () => {
    const s = setup();
    const approved = await approvedAda(s);
    const listed = await verify(s, { given_names: 'Ivan', surname: 'Petrovsky' });
    expect((await run(s, listed, 1)).status).toBe('Double Check');
    const built: number[] = [];
    let screened = 0;
    const screenerOf = (c: readonly ListChanges[]) => {
      built.push(c.flatMap((x) => x.changed).length);
      const inner = new FakeScreener(c.flatMap((x) => x.changed), Object.fromEntries(c.map((x) => [x.list, x.asOf])));
      return { screen: (...a: Parameters<FakeScreener['screen']>) => ((screened += 1), inner.screen(...a)), loaded: () => inner.loaded() };
    };
    // Ivan's entry changed too (new programme), but his verification is in Double Check: no event.
    const report = await rescreenApproved(s.deps, changes([ADA, { ...LISTED, programmes: ['Al-Qaida', 'ISIL'] }]), screenerOf);
    expect(built).toEqual([2]);
    expect(screened).toBe(2);
    expect(report).toMatchObject({ people: 2, published: 1 });
    expect(s.events.published.filter((e) => e.type === 'ScreeningHit').map((e) => e.detail.data.verification_id)).toEqual([approved]);

    // Cleared on that verification: a newer snapshot changing the entry again raises nothing.
    await clearScreeningHit(s.deps, REQ, FLOW, approved, { ...ACTOR, list: 'un-sc', entry: '7000001' });
    const later = await rescreenApproved(s.deps, [{ list: 'un-sc', asOf: '2026-01-03', changed: [ADA] }], screenerOf);
    expect(later).toMatchObject({ hits: 0, published: 0 });
  });

  it('does nothing without changes, and reads no flow that does not re-screen', async () => {
    const s = setup();
    expect(await rescreenApproved(s.deps, [{ list: 'un-sc', asOf: '2026-01-02', changed: [] }], fakeChangesScreener)).toEqual({ flows: [], people: 0, hits: 0, published: 0 });
    expect(await rescreenApproved(s.deps, [{ list: 'eu-fsf', asOf: '2026-01-02', changed: [ADA] }], fakeChangesScreener)).toMatchObject({ flows: [] });
  });
});

describe('refreshing the lists (the scheduled job)', () => {
  const sources = [{ list: 'un-sc', files: { xml: 'https://lists.test/un.xml' } }];
  /** The "publisher": a file whose text is the JSON of the entries, parsed by the stand-in parser. */
  const publish = (entries: ListEntry[]) => JSON.stringify(entries);
  const parse = (list: string, files: Readonly<Record<string, string>>, takenAt: string): ListSnapshot => ({ list, asOf: takenAt, entries: JSON.parse(files.xml ?? 'x') as ListEntry[] });
  const many = (n: number) => Array.from({ length: n }, (_, i) => listedPerson('un-sc', String(100 + i), `Person Number${i}`));

  function refresher(s: Setup, files: Record<string, string | Error>) {
    const snapshots = new InMemorySnapshots();
    const fetcher = { fetch: async (url: string) => { const f = files[url]; if (f instanceof Error) throw f; if (f === undefined) throw new Error('404'); return f; } };
    return { snapshots, run: () => refreshLists(s.deps, { sources, fetcher, snapshots, parse, diff: diffById, screenerOf: fakeChangesScreener }) };
  }

  it('stores a parsed snapshot, re-screens against what changed and records the newest snapshot\'s age', async () => {
    const s = setup();
    const id = await verify(s, { given_names: 'Ada', surname: 'Lovelace' });
    expect((await run(s, id, 1)).status).toBe('Approved');
    const files: Record<string, string | Error> = { 'https://lists.test/un.xml': publish(many(10)) };
    const r = refresher(s, files);
    expect((await r.run()).lists).toEqual([{ list: 'un-sc', status: 'stored', asOf: '2026-01-02', entries: 10, changed: 10 }]);
    files['https://lists.test/un.xml'] = publish([...many(10).slice(1), listedPerson('un-sc', '7000001', 'Ada Lovelace')]);
    const second = await r.run();
    expect(second.lists).toEqual([{ list: 'un-sc', status: 'stored', asOf: '2026-01-02', entries: 10, changed: 1 }]);
    expect(second.rescreen).toMatchObject({ published: 1 });
    expect(r.snapshots.versions).toHaveLength(2);
    expect(s.metrics.values(METRIC.screeningSnapshotAge)).toEqual([0.13, 0.13]);
  });

  it('refuses a snapshot whose entry count moved more than 20 %, one that does not parse and one that cannot be fetched, keeping the last', async () => {
    const s = setup();
    const files: Record<string, string | Error> = { 'https://lists.test/un.xml': publish(many(10)) };
    const r = refresher(s, files);
    await r.run();
    files['https://lists.test/un.xml'] = publish(many(7));
    expect((await r.run()).lists[0]).toMatchObject({ status: 'refused', reason: expect.stringContaining('moved 30.0 %'), kept: { entries: 10 } });
    files['https://lists.test/un.xml'] = '<xml';
    expect((await r.run()).lists[0]).toMatchObject({ status: 'refused', reason: expect.stringContaining('SyntaxError') });
    files['https://lists.test/un.xml'] = new Error('connect ETIMEDOUT');
    expect((await r.run()).lists[0]).toMatchObject({ status: 'refused', kept: { entries: 10 } });
    expect(r.snapshots.versions).toHaveLength(1);
  });

  it('records a stale figure when a list has no snapshot at all (the alarm fires)', async () => {
    const s = setup();
    const r = refresher(s, {});
    const report = await r.run();
    expect(report.oldestAgeDays).toBe(Number.POSITIVE_INFINITY);
    expect(s.metrics.values(METRIC.screeningSnapshotAge)).toEqual([9999]);
  });
});

describe('bounded: what screening stores does not grow with the lists', () => {
  it('keeps at most 5 hits, 10 reasons each of at most 300 characters, whatever the screener returns (the document item stays small)', () => {
    const huge = Array.from({ length: 40 }, (_, i) => ({
      list: 'ofac-sdn',
      entry: String(10_000 + i),
      reference: String(10_000 + i),
      name: 'N'.repeat(300),
      programmes: Array.from({ length: 30 }, () => 'SDGT'),
      score: 0.9 + i / 1000,
      reasons: Array.from({ length: 50 }, () => 'r'.repeat(1000)),
    }));
    const result = screeningResult({ lists: ['ofac-sdn'], threshold: 0.85, maxAgeDays: 7 }, [{ status: 'screened', lists: [{ list: 'ofac-sdn', asOf: '2026-01-01' }], best: 0.94, hits: huge }], []);
    expect(result.hits).toHaveLength(5);
    expect(result.hits?.[0]?.entry).toBe('10039');
    expect(JSON.stringify(result).length).toBeLessThan(24_000);
  });
});

describe('replay', () => {
  it('takes person.screening as recorded (a replay screens nobody): a listed person stays in Double Check and no rule is said to change', async () => {
    const s = setup();
    const id = await verify(s, { given_names: 'Ivan', surname: 'Petrovsky' });
    expect((await run(s, id, 1)).status).toBe('Double Check');
    const replay = await replayVerification(s.deps, id);
    expect(replay).toMatchObject({ recorded: 'Double Check', replayed: 'Double Check', changed: false, rules: [] });
  });
});
