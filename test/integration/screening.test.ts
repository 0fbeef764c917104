import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Runtime } from '../../local/runtime';
import { b64, png } from '../fixtures/images';
import { FakeScreener, fakeChangesScreener, listedPerson } from '../fakes/screening';
import { client, startTestRuntime } from './harness';

const FLOW = 'kyc-screened';
const LISTED = listedPerson('un-sc', '6908555', 'Ivan Petrovsky', '1971-03-04');
const REVIEWER = { comment: 'Not the listed person: another nationality and a passport the list does not name', email: 'reviewer@example.com' };

let runtime: Runtime;
let stop: () => Promise<void>;
let api: ReturnType<typeof client>;
const screener = new FakeScreener([LISTED], { 'un-sc': new Date().toISOString().slice(0, 10), 'ofac-sdn': new Date().toISOString().slice(0, 10) });

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
  ({ runtime, stop } = await startTestRuntime({ screener }));
  api = client(runtime);
});
afterAll(async () => {
  await stop?.();
});

/** A verification whose passport (sandbox payload) reads this person, submitted and processed. */
let serial = 0;
async function processed(first: string, last: string, dateOfBirth = '1971-03-04') {
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
    const id = await processed('Ivan', 'Petrovsky');
    const first = await screeningOf(id);
    expect(first.verification.status_label).toBe('Double Check');
    expect(first.rule).toMatchObject({ result: 'review', source: 'screening', threshold: 'review >= 0.85' });
    expect(first.rule.hits).toEqual([expect.objectContaining({ list: 'un-sc', entry: '6908555', reference: 'QDi.6908555', programmes: ['Al-Qaida'], score: 0.97 })]);
    expect(first.rule.hits[0].reasons.length).toBeGreaterThan(0);

    const cleared = await api('POST', `/api/v1/${FLOW}/verifications/${id}/screening/clear`, { list: 'un-sc', entry: '6908555', ...REVIEWER });
    expect(cleared.status).toBe(200);
    const after = await screeningOf(id);
    expect(after.rule.result).toBe('passed');
    expect(after.rule.hits[0].cleared).toMatchObject({ user: REVIEWER.email, comment: REVIEWER.comment });
    expect(after.verification.history[0]).toMatchObject({ user: REVIEWER.email, from_status: 'Double Check', to_status: 'Double Check' });
    expect(after.verification.history[0].comment).toContain('un-sc entry 6908555');

    // Clearing it again: 400; an entry that is not a hit here: 422; a malformed entry: 422.
    expect((await api('POST', `/api/v1/${FLOW}/verifications/${id}/screening/clear`, { list: 'un-sc', entry: '6908555', ...REVIEWER })).status).toBe(400);
    expect((await api('POST', `/api/v1/${FLOW}/verifications/${id}/screening/clear`, { list: 'un-sc', entry: '1234', ...REVIEWER })).status).toBe(422);
    expect((await api('POST', `/api/v1/${FLOW}/verifications/${id}/screening/clear`, { list: 'UN SC', entry: '6908555', ...REVIEWER })).status).toBe(422);

    // A re-run (status Double Check runs the checks again): still cleared, so nothing holds it back.
    expect((await api('PATCH', `/api/v1/${FLOW}/verifications/${id}`, { status: 5, comment: 'check again', email: REVIEWER.email })).status).toBe(200);
    await runtime.idle();
    const rerun = await screeningOf(id);
    expect(rerun.rule).toMatchObject({ result: 'passed', extracted: '1 cleared hit(s)' });
    expect(rerun.verification.status_label).toBe('Approved');
  });

  it('answers an idempotent retry of a clearance with the same verification (Idempotency-Key)', async () => {
    const id = await processed('Ivan', 'Petrovsky');
    const send = () =>
      fetch(`${runtime.url}/api/v1/${FLOW}/verifications/${id}/screening/clear`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${runtime.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': `clear-${id}` },
        body: JSON.stringify({ list: 'un-sc', entry: '6908555', ...REVIEWER }),
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
      const added = listedPerson('un-sc', '7000002', 'Grace Hopper', '1966-12-09');
      const report = await runtime.rescreenNow([{ list: 'un-sc', asOf: new Date().toISOString().slice(0, 10), changed: [added] }], fakeChangesScreener);
      expect(report).toMatchObject({ flows: [FLOW], published: 1 });
      await runtime.idle();
      const bodies = hooks.received.map((b) => JSON.parse(b) as { type: string; data: { verification_id: string; entry: { list: string; entry: string } } });
      expect(bodies.filter((b) => b.type === 'ScreeningHit')).toEqual([expect.objectContaining({ data: expect.objectContaining({ verification_id: id, entry: expect.objectContaining({ list: 'un-sc', entry: '7000002' }) }) })]);
      // The same snapshot again: nothing more.
      expect((await runtime.rescreenNow([{ list: 'un-sc', asOf: new Date().toISOString().slice(0, 10), changed: [added] }], fakeChangesScreener)).published).toBe(0);
    } finally {
      await hooks.stop();
    }
  });
});
