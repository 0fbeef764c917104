import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Runtime } from '../../local/runtime';
import { DEFAULT_SNAPSHOT_FOLDER } from '../../src/adapters/screening/file-screener';
import { b64, png } from '../fixtures/images';
import { client, startTestRuntime } from './harness';

const FLOW = 'kyc-screened';
const REVIEWER = { comment: 'Not the listed person: another nationality and a passport the list does not name', email: 'reviewer@example.com' };

let runtime: Runtime;
let stop: () => Promise<void>;
let api: ReturnType<typeof client>;

/**
 * A newer UN snapshot, as the publisher would send it: the repository's test list, generated today,
 * with one more individual.
 */
function newerSnapshot(first: string, last: string, dateOfBirth: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'idv-lists-'));
  copyFileSync(join(DEFAULT_SNAPSHOT_FOLDER, 'ofac-sdn.csv'), join(folder, 'ofac-sdn.csv'));
  const added = `<INDIVIDUAL><DATAID>9100777</DATAID><VERSIONNUM>1</VERSIONNUM><FIRST_NAME>${first.toUpperCase()}</FIRST_NAME><SECOND_NAME>${last.toUpperCase()}</SECOND_NAME><UN_LIST_TYPE>Test</UN_LIST_TYPE><REFERENCE_NUMBER>TSi.777</REFERENCE_NUMBER><LISTED_ON>2026-11-01</LISTED_ON><NATIONALITY><VALUE>United States of America</VALUE></NATIONALITY><INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>EXACT</TYPE_OF_DATE><DATE>${dateOfBirth}</DATE></INDIVIDUAL_DATE_OF_BIRTH><INDIVIDUAL_DOCUMENT/></INDIVIDUAL>`;
  const xml = readFileSync(join(DEFAULT_SNAPSHOT_FOLDER, 'un-consolidated.xml'), 'utf8')
    .replace(/dateGenerated='[^']*'/, `dateGenerated='${new Date().toISOString()}'`)
    .replace('<INDIVIDUALS>', `<INDIVIDUALS>${added}`);
  writeFileSync(join(folder, 'un-consolidated.xml'), xml);
  return folder;
}

/** A webhook subscriber on 127.0.0.1 that records what it receives. */
function receiver() {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200).end();
    });
  });
  return {
    received,
    start: () => new Promise<string>((ok) => server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`))),
    stop: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

beforeAll(async () => {
  // The repository's own fictional lists (config/screening), read at start and screened with the real matcher.
  ({ runtime, stop } = await startTestRuntime());
  api = client(runtime);
});
afterAll(async () => {
  await stop?.();
});

/** A verification whose passport (sandbox payload) reads this person, submitted and processed. */
let serial = 0;
async function processed(first: string, last: string, dateOfBirth = '1966-07-30') {
  const number = `P${7654321 + serial++}`;
  const created = await api('POST', `/api/v1/${FLOW}/verifications`, { person: { first_name: first, last_name: last, date_of_birth: dateOfBirth }, documents: { photo_id: { type: 'Passport', number, country: 'RUS' } } });
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  const photo = { person: { given_names: first, surname: last, full_name: `${first} ${last}`, date_of_birth: dateOfBirth }, document: { number, country_code: 'RUS', expiration_date: '2031-01-01' } };
  const doc = await api('POST', `/api/v1/${FLOW}/documents`, { verification: id, document: { context_type: 'PHOTO_ID', type: 1, country: 'RUS', front_side_data: b64(png(8, 8, 1, photo)) } });
  expect(doc.status).toBe(201);
  expect((await api('PUT', `/api/v1/${FLOW}/verifications/${id}/submit`)).status).toBe(200);
  await runtime.idle();
  return id;
}

async function screeningOf(id: string) {
  const got = await api('GET', `/api/v1/${FLOW}/verifications/${id}`);
  expect(got.status).toBe(200);
  const photo = got.body.data.documents.find((d: { document_type: { type_label: string } }) => d.document_type.type_label === 'Photo ID');
  return { verification: got.body.data, rule: photo.rules.results.find((r: { name: string }) => r.name === 'person.screening') };
}

describe('sanctions screening in the product (DynamoDB Local, the pipeline, the API)', () => {
  it('sends a listed person to Double Check with the hit; a reviewer clears it (history); a re-run keeps it cleared', async () => {
    expect(runtime.screeningLists.map((l) => l.list).sort()).toEqual(['ofac-sdn', 'un-sc']);
    // A listed person of the UN test list: Zakhar Mironovich Pustovalov, born 30 July 1966.
    const id = await processed('Zakhar Mironovich', 'Pustovalov');
    const first = await screeningOf(id);
    expect(first.verification.status_label).toBe('Double Check');
    expect(first.rule).toMatchObject({ result: 'review', source: 'screening', threshold: 'review >= 0.83' });
    expect(first.rule.hits).toEqual([expect.objectContaining({ list: 'un-sc', entry: '9100001', reference: 'TSi.001', programmes: ['Test'] })]);
    expect(first.rule.hits[0].score).toBeGreaterThanOrEqual(0.83);
    expect(first.rule.hits[0].reasons.join(' ')).toMatch(/birth/i);

    const cleared = await api('POST', `/api/v1/${FLOW}/verifications/${id}/screening/clear`, { list: 'un-sc', entry: '9100001', ...REVIEWER });
    expect(cleared.status).toBe(200);
    const after = await screeningOf(id);
    expect(after.rule.result).toBe('passed');
    expect(after.rule.hits[0].cleared).toMatchObject({ user: REVIEWER.email, comment: REVIEWER.comment });
    expect(after.verification.history[0]).toMatchObject({ user: REVIEWER.email, from_status: 'Double Check', to_status: 'Double Check' });
    expect(after.verification.history[0].comment).toContain('un-sc entry 9100001');

    // Clearing it again: 400; an entry that is not a hit here: 422; a malformed entry: 422.
    expect((await api('POST', `/api/v1/${FLOW}/verifications/${id}/screening/clear`, { list: 'un-sc', entry: '9100001', ...REVIEWER })).status).toBe(400);
    expect((await api('POST', `/api/v1/${FLOW}/verifications/${id}/screening/clear`, { list: 'un-sc', entry: '1234', ...REVIEWER })).status).toBe(422);
    expect((await api('POST', `/api/v1/${FLOW}/verifications/${id}/screening/clear`, { list: 'UN SC', entry: '9100001', ...REVIEWER })).status).toBe(422);
    const noComment = await api('POST', `/api/v1/${FLOW}/verifications/${id}/screening/clear`, { list: 'un-sc', entry: '9100001', email: REVIEWER.email });
    expect([noComment.status, Object.keys(noComment.body.errors)]).toEqual([422, ['comment']]);
    expect((await api('POST', `/api/v1/${FLOW}/verifications/ver_unknown/screening/clear`, { list: 'un-sc', entry: '9100001', ...REVIEWER })).status).toBe(404);
    expect((await api('POST', `/api/v1/default/verifications/${id}/screening/clear`, { list: 'un-sc', entry: '9100001', ...REVIEWER })).status).toBe(400);

    // A re-run (status Double Check runs the checks again): still cleared, so nothing holds it back.
    expect((await api('PATCH', `/api/v1/${FLOW}/verifications/${id}`, { status: 5, comment: 'check again', email: REVIEWER.email })).status).toBe(200);
    await runtime.idle();
    const rerun = await screeningOf(id);
    expect(rerun.rule).toMatchObject({ result: 'passed', extracted: '1 cleared hit(s)' });
    expect(rerun.verification.status_label).toBe('Approved');
  });

  it('answers an idempotent retry of a clearance with the same verification (Idempotency-Key)', async () => {
    const id = await processed('Zakhar Mironovich', 'Pustovalov');
    const send = () =>
      fetch(`${runtime.url}/api/v1/${FLOW}/verifications/${id}/screening/clear`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${runtime.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': `clear-${id}` },
        body: JSON.stringify({ list: 'un-sc', entry: '9100001', ...REVIEWER }),
      });
    const a = await send();
    const b = await send();
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(((await b.json()) as { data: { id: string } }).data.id).toBe(id);
  });

  it('re-screens approved verifications when a new snapshot adds the person, publishing ScreeningHit to the webhooks', async () => {
    const hooks = receiver();
    const url = await hooks.start();
    try {
      expect((await api('POST', `/api/v1/${FLOW}/webhooks`, { url, events: ['ScreeningHit'], payload: 'full' })).status).toBe(201);
      const id = await processed('Grace', 'Hopper', '1966-12-09');
      expect((await screeningOf(id)).verification.status_label).toBe('Approved');
      const folder = newerSnapshot('Grace', 'Hopper', '1966-12-09');
      try {
        const loaded = await runtime.loadScreeningLists(folder);
        expect(loaded.changes.find((c) => c.list === 'un-sc')).toMatchObject({ changed: 1 });
        expect(loaded.rescreen).toMatchObject({ flows: [FLOW], published: 1 });
        await runtime.idle();
        const bodies = hooks.received.map((b) => JSON.parse(b) as { type: string; data: { verification_id: string; entry: { list: string; entry: string } } });
        expect(bodies.filter((b) => b.type === 'ScreeningHit')).toEqual([expect.objectContaining({ data: expect.objectContaining({ verification_id: id, entry: expect.objectContaining({ list: 'un-sc', entry: '9100777' }) }) })]);
        // The same snapshot again: nothing changed, nothing more published.
        expect((await runtime.loadScreeningLists(folder)).rescreen.published).toBe(0);
        // A reviewer clears the re-screen's hit on the approved verification (it is a hit of this verification: 200).
        expect((await api('POST', `/api/v1/${FLOW}/verifications/${id}/screening/clear`, { list: 'un-sc', entry: '9100777', ...REVIEWER })).status).toBe(200);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    } finally {
      await hooks.stop();
    }
  });
});
