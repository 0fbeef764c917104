import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_TABLE } from '../../local/runtime';
import { b64, pdf, png } from '../fixtures/images';
import { defaultBody, useTestRuntime } from './harness';

/**
 * The fraud and consistency rules through the local pipeline (sandbox extractor: what each source
 * "read" is carried in the images), the flows of config/flows.json (default: minimum age 18, proof of
 * address at most 90 days old).
 */
const t = useTestRuntime();

const passport = (overrides: { person?: object; document?: object; readings?: object[] } = {}) => ({
  person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10', ...overrides.person },
  document: { number: 'P123', country_code: 'GBR', expiration_date: '2031-01-01', type: 'P', ...overrides.document },
  ...(overrides.readings && { readings: overrides.readings }),
});
const bill = (readings: object[] = [], name = 'ADA LOVELACE') => ({
  person: { full_name: name },
  address: { full: '1 Main St, Austin TX 78701', country: 'USA' },
  readings,
});

export async function verificationWith(api: ReturnType<typeof useTestRuntime>['api'], photo: unknown, poa: unknown, body: any = defaultBody()): Promise<string> {
  const created = await api('POST', '/api/v1/default/verifications', body);
  expect(created.status).toBe(201);
  const v = created.body.data.id as string;
  const a = await api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(8, 8, 1, photo)) } });
  expect(a.status).toBe(201);
  const b = await api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(pdf(poa)) } });
  expect(b.status).toBe(201);
  return v;
}

async function processed(v: string) {
  expect((await t.api('PUT', `/api/v1/default/verifications/${v}/submit`)).status).toBe(200);
  await t.h.runtime.workflow.idle();
  return (await t.api('GET', `/api/v1/default/verifications/${v}`)).body.data;
}

const ruleOf = (got: any, label: string, name: string) => got.documents.find((d: any) => d.document_type.type_label === label).rules.results.find((r: any) => r.name === name);

describe('consistency rules in the pipeline', () => {
  it('approves a consistent verification and records the versions the rules ran with', async () => {
    const v = await verificationWith(t.api, passport(), bill());
    const got = await processed(v);
    expect(got.status_label).toBe('Approved');
    expect(ruleOf(got, 'Photo ID', 'person.minimum_age')).toMatchObject({ result: 'passed', threshold: '>= 18' });
    expect(ruleOf(got, 'Proof of Address', 'proof_of_address.issued_within')).toMatchObject({ result: 'not_evaluated', reason: 'the extractor read no issue date on this document' });
    const photo = got.documents.find((d: any) => d.document_type.type_label === 'Photo ID');
    expect(photo.rules.versions).toEqual({ rules: expect.any(String), thresholds: expect.stringMatching(/^sha256:[0-9a-f]{16}$/), extractor: 'sandbox' });
  });

  it('rejects an under-age holder', async () => {
    const body = defaultBody();
    body.person.date_of_birth = '2015-01-01';
    const v = await verificationWith(t.api, passport({ person: { date_of_birth: '2015-01-01' } }), bill(), body);
    const got = await processed(v);
    expect(got.status_label).toBe('Rejected');
    expect(ruleOf(got, 'Photo ID', 'person.minimum_age')).toMatchObject({ result: 'failed', reason: expect.stringContaining("under the flow's minimum age 18") });
  });

  it('rejects a proof of address issued long before submission and passes a recent one', async () => {
    const old = await processed(await verificationWith(t.api, passport(), bill([{ field: 'document.issue_date', value: '2001-01-01', source: 'ocr' }])));
    expect(old.status_label).toBe('Rejected');
    expect(ruleOf(old, 'Proof of Address', 'proof_of_address.issued_within')).toMatchObject({ result: 'failed', extracted: '2001-01-01', source: 'ocr' });
    const today = new Date().toISOString().slice(0, 10);
    const recent = await processed(await verificationWith(t.api, passport(), bill([{ field: 'document.issue_date', value: today, source: 'ocr' }])));
    expect(recent.status_label).toBe('Approved');
  });

  it('sends an MRZ number that differs from the printed one to Double Check, naming both sources', async () => {
    const readings = [
      { field: 'document.number', value: 'P123', source: 'mrz' },
      { field: 'document.number', value: 'P128', source: 'printed' },
    ];
    const got = await processed(await verificationWith(t.api, passport({ readings }), bill()));
    expect(got.status_label).toBe('Double Check');
    expect(ruleOf(got, 'Photo ID', 'consistency.document.number')).toMatchObject({ result: 'review', expected: 'P123', extracted: 'P128', source: 'mrz vs printed' });
  });

  it('compares the photo ID name with the proof of address name: another name is reviewed', async () => {
    const other = await processed(await verificationWith(t.api, passport(), bill([], 'ADA KING')));
    const results = other.documents.flatMap((d: any) => d.rules.results).filter((r: any) => r.name === 'consistency.name_across_documents');
    // Evaluated on whichever document's evaluation saw the other one read: at least one does (README).
    expect(results.length).toBeGreaterThanOrEqual(1);
    expect(results).toEqual(results.map(() => expect.objectContaining({ result: 'review', source: 'photo_id vs proof_of_address' })));
  });
});

describe('duplicate documents', () => {
  it('flags a second verification with the same passport number and another name, naming the first, and keeps the number out of the index', async () => {
    const first = await processed(await verificationWith(t.api, passport({ document: { number: 'DUP12345' } }), bill(), bodyFor('Ada', 'Lovelace', 'DUP12345')));
    expect(first.status_label).toBe('Approved');
    expect(ruleOf(first, 'Photo ID', 'duplicate.document')).toMatchObject({ result: 'passed', reason: 'not seen on another verification of this flow' });

    const second = await processed(
      await verificationWith(t.api, passport({ person: { given_names: 'Grace', surname: 'Hopper', date_of_birth: '1980-01-02' }, document: { number: 'DUP 12345' } }), bill([], 'GRACE HOPPER'), bodyFor('Grace', 'Hopper', 'DUP12345', '1980-01-02')),
    );
    expect(second.status_label).toBe('Double Check');
    expect(ruleOf(second, 'Photo ID', 'duplicate.document')).toMatchObject({ result: 'review', source: 'index', other_verification_ids: [first.id] });

    // The first holder again: flagged for the other person (Grace), not for the same person (the first verification).
    const again = await processed(await verificationWith(t.api, passport({ document: { number: 'DUP12345' } }), bill(), bodyFor('Ada', 'Lovelace', 'DUP12345')));
    expect(ruleOf(again, 'Photo ID', 'duplicate.document')).toMatchObject({ result: 'review', other_verification_ids: [second.id] });

    // The index holds keyed fingerprints only.
    const { Items = [] } = await t.h.runtime.doc.send(new ScanCommand({ TableName: LOCAL_TABLE, FilterExpression: 'entity = :e', ExpressionAttributeValues: { ':e': 'documentSeen' } }));
    expect(Items.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(Items)).not.toMatch(/DUP ?12345/);
  });
});

function bodyFor(first: string, last: string, number: string, dob = '1990-12-10') {
  const body = defaultBody();
  body.person = { first_name: first, last_name: last, date_of_birth: dob };
  body.documents.photo_id.number = number;
  return body;
}
