import fc from 'fast-check';
import { b64, pdf, png } from '../fixtures/images';
import { defaultBody, useTestRuntime } from './harness';

const t = useTestRuntime();

const photo = { person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' }, document: { number: 'P123', expiration_date: '2031-01-01' } };
const bill = { person: { full_name: 'Ada Lovelace' }, address: { full: '1 Main St Austin TX 78701', country: 'USA' } };
const REQUIRED = ['PHOTO_ID', 'PROOF_OF_ADDRESS'] as const;
type Context = (typeof REQUIRED)[number];

/** A request as the widget page makes it: no API token, the session token in the path. */
async function widget(method: string, path: string, body?: unknown) {
  const res = await fetch(`${t.h.runtime.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.text();
  return res.status;
}

/** A default-flow verification with both required documents uploaded, still Started. */
async function ready() {
  const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
  const docs = {} as Record<Context, string>;
  const upload = async (context_type: Context, type: number, country: string, data: Buffer) => {
    const res = await t.api('POST', '/api/v1/default/documents', { verification: v.id, document: { context_type, type, country, front_side_data: b64(data) } });
    expect(res.status).toBe(201);
    docs[context_type] = res.body.data.id;
  };
  await upload('PHOTO_ID', 1, 'GBR', png(8, 8, 1, photo));
  await upload('PROOF_OF_ADDRESS', 4, 'USA', pdf(bill));
  return { id: v.id as string, path: new URL(v.url).pathname, docs };
}

const micros = (timestamp: string) => Date.parse(timestamp);
/** The context of a presented document, from its type (default flow: 1 Passport, 4 Utility Bill). */
const contextOf = (d: any): Context => (d.document_type.id === 1 ? 'PHOTO_ID' : 'PROOF_OF_ADDRESS');

/**
 * The property: an automatic Approved written at time T stands on every required document. A
 * required document that is gone at the end must have been deleted by a request that had not
 * finished before T (its deletion may have committed after the decision, which the spec allows).
 */
async function expectNoDecisionAgainstTheDocuments(id: string, deletedBefore: Partial<Record<Context, number>>) {
  const v = (await t.api('GET', `/api/v1/default/verifications/${id}`)).body.data;
  expect(v.status_label).not.toBe('Submitted');
  const present = new Map<string, string>(v.documents.map((d: any) => [contextOf(d), d.status_label]));
  for (const h of v.history) {
    if (h.user !== 'system' || h.to_status !== 'Approved') continue;
    const at = micros(h.created_at);
    for (const ctx of REQUIRED) {
      if (present.has(ctx)) continue;
      const finished = deletedBefore[ctx];
      // Deleted by a request that had already answered when the approval was written: a contradiction.
      expect({ context: ctx, deletedBeforeApproval: finished !== undefined && finished <= at }).toEqual({ context: ctx, deletedBeforeApproval: false });
    }
  }
  if (v.status_label === 'Approved' && v.history[0].user === 'system') {
    for (const ctx of REQUIRED) if (present.has(ctx)) expect(present.get(ctx)).toBe('Approved');
  }
}

describe('decision integrity', () => {
  it('a widget submit and a widget delete sent together never both succeed, and never approve without the document', async () => {
    for (let i = 0; i < 15; i++) {
      const s = await ready();
      const [submit, del] = await Promise.all([widget('PUT', `${s.path}/submit`), widget('DELETE', `${s.path}/documents/${s.docs.PHOTO_ID}`)]);
      expect([submit, del]).not.toEqual([200, 204]);
      expect([200, 400]).toContain(submit);
      expect([204, 400]).toContain(del);
      await t.h.runtime.idle();
      const v = (await t.api('GET', `/api/v1/default/verifications/${s.id}`)).body.data;
      if (submit === 200) {
        expect(v.documents.map(contextOf).sort()).toEqual([...REQUIRED]);
      } else {
        expect(v.status_label).toBe('Started');
      }
    }
  }, 240_000);

  it('Submit then Delete Document through the API ends in Double Check, not Approved', async () => {
    const s = await ready();
    expect((await t.api('PUT', `/api/v1/default/verifications/${s.id}/submit`)).status).toBe(200);
    const deleted = await t.api('DELETE', `/api/v1/default/documents/${s.docs.PHOTO_ID}`);
    expect(deleted.status).toBe(204);
    const finished = Date.now();
    await t.h.runtime.idle();
    await expectNoDecisionAgainstTheDocuments(s.id, { PHOTO_ID: finished });
  });

  it('whatever interleaving of submits, deletes and uploads, no automatic decision contradicts the documents present', async () => {
    const action = fc.constantFrom('widgetSubmit', 'apiSubmit', 'widgetDelete', 'apiDelete', 'widgetUpload');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ action, context: fc.constantFrom(...REQUIRED), delay: fc.integer({ min: 0, max: 40 }) }), { minLength: 1, maxLength: 4 }),
        async (steps) => {
          const s = await ready();
          const deletedBefore: Partial<Record<Context, number>> = {};
          await Promise.all(
            steps.map(async ({ action: a, context, delay }) => {
              await new Promise((r) => setTimeout(r, delay));
              const docId = s.docs[context];
              if (a === 'widgetSubmit') await widget('PUT', `${s.path}/submit`);
              if (a === 'apiSubmit') await t.api('PUT', `/api/v1/default/verifications/${s.id}/submit`);
              if (a === 'widgetUpload') {
                const data = context === 'PHOTO_ID' ? png(8, 8, 1, photo) : pdf(bill);
                await widget('POST', `${s.path}/documents`, { document: { context_type: context, type: context === 'PHOTO_ID' ? 1 : 4, country: context === 'PHOTO_ID' ? 'GBR' : 'USA', front_side_data: b64(data) } });
              }
              if (a === 'widgetDelete' || a === 'apiDelete') {
                const status = a === 'widgetDelete' ? await widget('DELETE', `${s.path}/documents/${docId}`) : (await t.api('DELETE', `/api/v1/default/documents/${docId}`)).status;
                if (status === 204) deletedBefore[context] = Math.min(deletedBefore[context] ?? Infinity, Date.now());
              }
            }),
          );
          await t.h.runtime.idle();
          await expectNoDecisionAgainstTheDocuments(s.id, deletedBefore);
        },
      ),
      { numRuns: 15 },
    );
  }, 240_000);
});

describe('expected data after a decision', () => {
  async function approved() {
    const s = await ready();
    await t.api('PUT', `/api/v1/default/verifications/${s.id}/submit`);
    await t.h.runtime.idle();
    expect((await t.api('GET', `/api/v1/default/verifications/${s.id}`)).body.data.status_label).toBe('Approved');
    return s;
  }

  it('refuses a change of expected data alone once the checks were made, and keeps the data', async () => {
    const s = await approved();
    const res = await t.api('PATCH', `/api/v1/default/verifications/${s.id}`, { person: { last_name: 'Byron' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Expected data cannot change while the verification is Approved.*person\.last_name.*status 5/);
    const v = (await t.api('GET', `/api/v1/default/verifications/${s.id}`)).body.data;
    expect(v.expected_data.person.last_name).toBe('Lovelace');
    // Fields that are not expected data, and values that do not change, are still accepted.
    expect((await t.api('PATCH', `/api/v1/default/verifications/${s.id}`, { vendor_state: 'x', person: { last_name: 'Lovelace' } })).status).toBe(200);
  });

  it('accepts the change with a status, and records who changed which fields in history', async () => {
    const s = await approved();
    const res = await t.api('PATCH', `/api/v1/default/verifications/${s.id}`, {
      status: 5,
      comment: 'name corrected by the customer',
      email: 'reviewer@example.com',
      person: { last_name: 'Byron' },
      address: { city: 'Dallas' },
    });
    expect(res.status).toBe(200);
    await t.h.runtime.idle();
    const v = (await t.api('GET', `/api/v1/default/verifications/${s.id}`)).body.data;
    const entry = v.history.find((h: any) => h.user === 'reviewer@example.com');
    expect(entry).toMatchObject({ from_status: 'Approved', to_status: 'Double Check', changed_fields: ['person.last_name', 'address.city'] });
    // The re-run checked the new data: the photo ID says Lovelace, so no automatic approval.
    expect(v.status_label).not.toBe('Approved');
  });
});
