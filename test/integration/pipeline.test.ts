import type { components } from '../../client';
import { b64, pdf, png } from '../fixtures/images';
import { defaultBody, TIMESTAMP, useTestRuntime } from './harness';

/**
 * The main flow, driven through the typed client generated from the contract (client/): create,
 * upload, submit, automatic processing, manual actions. Every answer is also checked against the
 * contract (harness `typedClient`).
 */
const t = useTestRuntime();
const action = { comment: 'again', email: 'reviewer@example.com' };
const flow = { flow: 'default' };
type Document = components['schemas']['GetVerificationResponse']['data']['documents'][number];

const passport = (overrides: Record<string, unknown> = {}) => ({
  person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' },
  document: { number: 'P123', country_code: 'GBR', expiration_date: '2031-01-01', type: 'P' },
  ...overrides,
});
const bill = { person: { full_name: 'ADA LOVELACE' }, address: { full: '1 Main St, Austin TX 78701', country: 'USA' } };

async function verificationWith(photo: unknown, poa: unknown = bill): Promise<string> {
  const created = await t.client.POST('/api/v1/{flow}/verifications', { params: { path: flow }, body: defaultBody() });
  const v = created.data!.data.id;
  const a = await t.client.POST('/api/v1/{flow}/documents', {
    params: { path: flow },
    body: { verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(8, 8, 1, photo)) } },
  });
  expect(a.response.status).toBe(201);
  const b = await t.client.POST('/api/v1/{flow}/documents', {
    params: { path: flow },
    body: { verification: v, document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(pdf(poa)) } },
  });
  expect(b.response.status).toBe(201);
  return v;
}

const on = (verificationId: string) => ({ params: { path: { ...flow, verificationId } } });
const submit = (v: string) => t.client.PUT('/api/v1/{flow}/verifications/{verificationId}/submit', on(v));

async function settled(v: string) {
  await t.h.runtime.workflow.idle();
  return (await t.client.GET('/api/v1/{flow}/verifications/{verificationId}', on(v))).data!.data;
}

const byLabel = (documents: Document[], label: string): Document => documents.find((d) => d.document_type.type_label === label)!;
/** Extracted data of a processed document (an empty array before processing). */
function extracted(d: Document) {
  if (Array.isArray(d.extracted_data)) throw new Error(`${d.id} has no extracted data`);
  return d.extracted_data;
}

describe('processing pipeline (sandbox extractor, same state machine file)', () => {
  it('approves a verification whose documents match, with extracted data, rules, decisions and a system history entry', async () => {
    const v = await verificationWith(passport());
    expect((await submit(v)).response.status).toBe(200);
    const got = await settled(v);
    expect(got.status_label).toBe('Approved');
    expect(got.history[0]).toMatchObject({ from_status: 'Submitted', to_status: 'Approved', user: 'system', comment: null });
    const photo = byLabel(got.documents, 'Photo ID');
    expect(photo.status_label).toBe('Approved');
    expect(extracted(photo).person).toEqual({ surname: 'Lovelace', full_name: '', given_names: 'Ada', date_of_birth: '1990-12-10' });
    expect(Object.values(extracted(photo).document).every((x) => typeof x === 'string')).toBe(true);
    expect(photo.decisions).toEqual([{ id: expect.stringMatching(/^dec_/), status_label: 'Approved', validation_workflow: 'automatic', created_at: expect.stringMatching(TIMESTAMP), updated_at: expect.any(String) }]);
    expect(photo.rules?.outcome).toBe('passed');
    expect(photo.rules?.results.map((r) => r.name)).toEqual(
      expect.arrayContaining(['person.first_name', 'person.last_name', 'person.date_of_birth', 'document.number', 'document.type', 'document.country', 'document.not_expired']),
    );
    const poa = byLabel(got.documents, 'Proof of Address');
    expect(poa.rules?.results.find((r) => r.name === 'person.full_name')).toMatchObject({ result: 'passed' });
    expect(t.h.runtime.workflow.failures).toEqual([]);
  });

  it('rejects when a rule fails and sends near matches to Double Check', async () => {
    const wrong = await verificationWith(passport({ document: { number: 'X999', country_code: 'GBR', expiration_date: '2031-01-01' } }));
    await submit(wrong);
    const rejected = await settled(wrong);
    expect(rejected.status_label).toBe('Rejected');
    const photo = byLabel(rejected.documents, 'Photo ID');
    expect(photo.rules?.results.find((r) => r.name === 'document.number')).toMatchObject({ expected: 'P123', extracted: 'X999', result: 'failed' });

    const near = await verificationWith(passport({ person: { given_names: 'Adda', surname: 'Lovelase', date_of_birth: '1990-12-10' } }));
    await submit(near);
    expect((await settled(near)).status_label).toBe('Double Check');
  });

  it('sends an unreadable document to Rejected with the identified rule failed', async () => {
    const v = await verificationWith(undefined);
    await submit(v);
    const got = await settled(v);
    expect(got.status_label).toBe('Rejected');
    const photo = byLabel(got.documents, 'Photo ID');
    expect(photo.rules?.results).toEqual([expect.objectContaining({ name: 'document.identified', result: 'failed' })]);
  });

  it('resubmit clears and re-runs; Update to Double Check re-runs', async () => {
    const v = await verificationWith(passport());
    await submit(v);
    await settled(v);
    const resubmitted = await t.client.PUT('/api/v1/{flow}/verifications/{verificationId}/resubmit', { ...on(v), body: action });
    expect(resubmitted.data?.data.documents.every((d) => d.rules === null)).toBe(true);
    const again = await settled(v);
    expect(again.status_label).toBe('Approved');
    expect(again.documents[0]?.decisions).toHaveLength(2);
    await t.client.PATCH('/api/v1/{flow}/verifications/{verificationId}', { ...on(v), body: { status: 5, ...action } });
    const rerun = await settled(v);
    expect(rerun.history.slice(0, 2).map((h) => [h.from_status, h.to_status, h.user])).toEqual([
      ['Double Check', 'Approved', 'system'],
      ['Approved', 'Double Check', action.email],
    ]);
  });

  it('lets a manual action taken during processing keep the last word', async () => {
    const v = await verificationWith(passport());
    await submit(v);
    const rejected = await t.client.PUT('/api/v1/{flow}/verifications/{verificationId}/reject', { ...on(v), body: action });
    expect(rejected.response.status).toBe(200);
    const got = await settled(v);
    expect(got.status_label).toBe('Rejected');
    expect(got.history[0]).toMatchObject({ to_status: 'Rejected', user: action.email });
  });

  it('compares a selfie too: a matching face approves, a different one rejects', async () => {
    for (const [similarity, outcome] of [
      ['96.5', 'Approved'],
      ['40', 'Rejected'],
    ] as const) {
      const v = await verificationWith(passport());
      const selfie = await t.client.POST('/api/v1/{flow}/documents', {
        params: { path: flow },
        body: { verification: v, document: { context_type: 'SELFIE', type: 6, country: 'GBR', front_side_data: b64(png(8, 8, 9, { document: { selfie_comparison: similarity } })) } },
      });
      expect(selfie.response.status).toBe(201);
      await submit(v);
      const got = await settled(v);
      expect(got.status_label).toBe(outcome);
      const doc = byLabel(got.documents, 'Selfie');
      // The payload carries no face descriptor nor presentation scores: those rules decide nothing.
      expect(doc.rules?.results).toEqual([
        expect.objectContaining({ name: 'selfie_comparison', extracted: similarity }),
        expect.objectContaining({ name: 'selfie.antispoof', result: 'not_evaluated' }),
        expect.objectContaining({ name: 'selfie.passive_liveness', result: 'not_evaluated' }),
        expect.objectContaining({ name: 'duplicate.face', result: 'not_evaluated' }),
        // Not taken through a liveness challenge: no proof of presence (the default flow does not require it).
        expect.objectContaining({ name: 'selfie.liveness', result: 'not_evaluated' }),
      ]);
      expect(extracted(doc).document.has_selfie).toBe('true');
    }
  });
});
