import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import flowsFile from '../../config/flows.json';
import thresholdsFile from '../../config/rules.json';
import { formatReplay, replayDeps } from '../../scripts/replay';
import { verifyReceipt } from '../../scripts/verify-receipt';
import { replayFlow, replayVerification } from '../../src/app/replay';
import { RuleThresholdsSchema } from '../../src/domain/rule-thresholds';
import { LOCAL_TABLE } from '../../local/runtime';
import { b64, pdf, png } from '../fixtures/images';
import { defaultBody, useTestRuntime } from './harness';

/**
 * The fraud and consistency rules through the local pipeline (sandbox extractor: what each source
 * "read" is carried in the images), the flows of config/flows.json (default: minimum age 18, proof of
 * address at most 90 days old).
 */
const t = useTestRuntime();
const thresholds = v.parse(RuleThresholdsSchema, thresholdsFile);

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
    const body = bodyFor('Ada', 'Lovelace', 'AGE15', '2015-01-01');
    const v = await verificationWith(t.api, passport({ person: { date_of_birth: '2015-01-01' }, document: { number: 'AGE15' } }), bill(), body);
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
    const across = (label: string) => ruleOf(other, label, 'consistency.name_across_documents');
    // Evaluated once both are read (FinishRun), on the proof of address, whichever finished first (README).
    expect(across('Proof of Address')).toMatchObject({ result: 'review', source: 'photo_id vs proof_of_address' });
    expect(across('Photo ID')).toBeUndefined();
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

  it('forgets a purged verification: its entries leave the index, and the document seen again is not matched to it', async () => {
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const gone = await processed(await verificationWith(t.api, passport({ document: { number: 'GONE777' } }), bill(), bodyFor('Ada', 'Lovelace', 'GONE777')));
    const entries = async () =>
      (await t.h.runtime.doc.send(new ScanCommand({ TableName: LOCAL_TABLE, FilterExpression: '(verification_id = :v AND entity = :seen) OR PK = :by', ExpressionAttributeValues: { ':v': gone.id, ':seen': 'documentSeen', ':by': `DOCSEENBY#${gone.id}` } }))).Items ?? [];
    expect((await entries()).map((i) => i.entity).sort()).toEqual(['documentSeen', 'documentSeenBy']);
    expect((await t.api('DELETE', `/api/v1/default/verifications/${gone.id}`)).status).toBe(204);
    await t.h.runtime.doc.send(
      new UpdateCommand({ TableName: LOCAL_TABLE, Key: { PK: `VER#${gone.id}`, SK: 'VER' }, UpdateExpression: 'SET GSI3SK = :sk', ExpressionAttributeValues: { ':sk': `2000-01-01T00:00:00.000000Z#${gone.id}` } }),
    );
    expect((await t.h.runtime.purgeNow()).purged).toBe(1);
    expect(await entries()).toEqual([]);
    const next = await processed(
      await verificationWith(t.api, passport({ person: { given_names: 'Grace', surname: 'Hopper', date_of_birth: '1980-01-02' }, document: { number: 'GONE777' } }), bill([], 'GRACE HOPPER'), bodyFor('Grace', 'Hopper', 'GONE777', '1980-01-02')),
    );
    expect(ruleOf(next, 'Photo ID', 'duplicate.document')).toMatchObject({ result: 'passed' });
  });
});

/** A deterministic 128-D "descriptor" (unit length, as face models give) from a seed, and one `noise` away from it. */
function descriptor(seed: number, noise = 0, noiseSeed = 7): number[] {
  let x = seed * 7919 + 1;
  const next = () => ((x = (x * 48271) % 2147483647) / 2147483647) * 2 - 1;
  const base = Array.from({ length: 128 }, next);
  x = noiseSeed * 104729 + 3;
  const moved = base.map((b) => b + noise * next());
  const norm = Math.hypot(...moved);
  return moved.map((m) => m / norm);
}

/** A verification with a photo ID, a proof of address and a selfie whose sandbox payload carries a face descriptor (and presentation scores). */
async function selfieVerification(person: { first: string; last: string; dob: string; number: string }, face: object) {
  const body = bodyFor(person.first, person.last, person.number, person.dob);
  const v = await verificationWith(t.api, passport({ person: { given_names: person.first, surname: person.last, date_of_birth: person.dob }, document: { number: person.number } }), bill([], `${person.first} ${person.last}`.toUpperCase()), body);
  const selfie = { document: { selfie_comparison: 90 }, face };
  const res = await t.api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'SELFIE', type: 6, country: 'GBR', front_side_data: b64(png(8, 8, 9, selfie)) } });
  expect(res.status).toBe(201);
  return processed(v);
}

describe('duplicate faces (sandbox descriptors)', () => {
  const ada = { first: 'Ada', last: 'Lovelace', dob: '1990-12-10', number: 'F1001' };
  const grace = { first: 'Grace', last: 'Hopper', dob: '1980-01-02', number: 'F1002' };
  const live = { antispoof: 0.9, liveness: 0.95 };

  it('flags a second selfie of the same face on another person\'s verification, naming the first; not a different face', async () => {
    const a = descriptor(11);
    const first = await selfieVerification(ada, { descriptor: a, ...live });
    expect(ruleOf(first, 'Selfie', 'duplicate.face')).toMatchObject({ result: 'passed', reason: 'not seen on another verification of this flow', threshold: 'distance < 0.45' });
    expect(first.status_label).toBe('Approved');

    // The same face, another picture (distance ≈ 0.2), on Grace's verification.
    const again = descriptor(11, 0.03);
    expect(Math.hypot(...a.map((x, i) => x - (again[i] ?? 0)))).toBeLessThan(0.45);
    const second = await selfieVerification(grace, { descriptor: again, ...live });
    expect(ruleOf(second, 'Selfie', 'duplicate.face')).toMatchObject({ result: 'review', source: 'index', other_verification_ids: [first.id], reason: expect.stringContaining(first.id) });
    expect(second.status_label).toBe('Double Check');

    // A different face on a third person's verification: not flagged.
    const other = await selfieVerification({ first: 'Mary', last: 'Somerville', dob: '1970-03-04', number: 'F1003' }, { descriptor: descriptor(12), ...live });
    expect(ruleOf(other, 'Selfie', 'duplicate.face')).toMatchObject({ result: 'passed', extracted: 'none' });
    expect(other.status_label).toBe('Approved');

    // The index holds ids and descriptors, no names, numbers or images.
    const { Items = [] } = await t.h.runtime.doc.send(new ScanCommand({ TableName: LOCAL_TABLE, FilterExpression: 'entity = :e', ExpressionAttributeValues: { ':e': 'faceSeen' } }));
    expect(Items.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(Items.map(({ descriptor: _, ...rest }) => rest))).not.toMatch(/Ada|Grace|Lovelace|Hopper|F100/i);
  });

  it('does not flag the same person verified twice (same date of birth and name)', async () => {
    const person = { first: 'Katherine', last: 'Johnson', dob: '1968-08-26', number: 'F2001' };
    const first = await selfieVerification(person, { descriptor: descriptor(21), ...live });
    const second = await selfieVerification({ ...person, number: 'F2002' }, { descriptor: descriptor(21, 0.03), ...live });
    expect(ruleOf(second, 'Selfie', 'duplicate.face')).toMatchObject({ result: 'passed', extracted: 'same person', other_verification_ids: [first.id] });
    expect(second.status_label).toBe('Approved');
  });

  it('says not_evaluated when the extractor gave no descriptor, and sends low presentation-attack scores to review, never rejected', async () => {
    const got = await selfieVerification({ first: 'Ada', last: 'Byron', dob: '1991-01-01', number: 'F3001' }, { antispoof: 0.05, liveness: 0.9 });
    expect(ruleOf(got, 'Selfie', 'duplicate.face')).toMatchObject({ result: 'not_evaluated' });
    expect(ruleOf(got, 'Selfie', 'selfie.antispoof')).toMatchObject({ result: 'review', score: 0.05, source: 'face_model', threshold: `>= ${thresholds.selfie_presentation.antispoof}` });
    expect(ruleOf(got, 'Selfie', 'selfie.passive_liveness')).toMatchObject({ result: 'passed', score: 0.9 });
    expect(got.status_label).toBe('Double Check');
    const none = await selfieVerification({ first: 'Ada', last: 'Byron', dob: '1991-01-01', number: 'F3002' }, {});
    expect(ruleOf(none, 'Selfie', 'selfie.passive_liveness')).toMatchObject({ result: 'not_evaluated', reason: 'the extractor gave no liveness score' });
  });

  it('purges the face descriptor (biometric data) with the verification', async () => {
    const { GetCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const got = await selfieVerification({ first: 'Purge', last: 'Face', dob: '1985-05-05', number: 'F4001' }, { descriptor: descriptor(41), ...live });
    const item = () => t.h.runtime.doc.send(new GetCommand({ TableName: LOCAL_TABLE, Key: { PK: 'FACESEEN#default', SK: `VER#${got.id}` } }));
    expect((await item()).Item).toBeDefined();
    expect((await t.api('DELETE', `/api/v1/default/verifications/${got.id}`)).status).toBe(204);
    await t.h.runtime.doc.send(
      new UpdateCommand({ TableName: LOCAL_TABLE, Key: { PK: `VER#${got.id}`, SK: 'VER' }, UpdateExpression: 'SET GSI3SK = :sk', ExpressionAttributeValues: { ':sk': `2000-01-01T00:00:00.000000Z#${got.id}` } }),
    );
    expect((await t.h.runtime.purgeNow()).purged).toBe(1);
    expect((await item()).Item).toBeUndefined();
  });
});

function bodyFor(first: string, last: string, number: string, dob = '1990-12-10') {
  const body = defaultBody();
  body.person = { first_name: first, last_name: last, date_of_birth: dob };
  body.documents.photo_id.number = number;
  return body;
}

describe('decision receipts', () => {
  it('serves a signed receipt that verifies offline with the images, and fails after one byte of an image changes', async () => {
    const front = png(8, 8, 1, passport());
    const proof = pdf(bill());
    const created = await t.api('POST', '/api/v1/default/verifications', defaultBody());
    const v = created.body.data.id as string;
    expect((await t.api(`GET`, `/api/v1/default/verifications/${v}/receipt`)).status).toBe(404);
    await t.api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(front) } });
    await t.api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(proof) } });
    const got = await processed(v);
    const res = await t.api('GET', `/api/v1/default/verifications/${v}/receipt`);
    expect(res.status).toBe(200);
    const receipt = res.body.data;
    expect(receipt.payload).toMatchObject({ verification_id: v, run: 1, status_label: got.status_label, flow: 'default' });
    expect(receipt.payload.documents.every((d: any) => d.rules.versions.extractor === 'sandbox')).toBe(true);

    // The public key from the data folder (out of band), not the one in the receipt.
    const publicKey = readFileSync(join(t.h.dataDir, 'receipt-key.pem.pub.pem'), 'utf8');
    expect(verifyReceipt(receipt, publicKey, [front, proof])).toEqual({ ok: true, problems: [] });

    const tampered = Buffer.from(front);
    tampered[tampered.length - 20] = (tampered[tampered.length - 20] ?? 0) ^ 0x01;
    const check = verifyReceipt(receipt, publicKey, [tampered, proof]);
    expect(check.ok).toBe(false);
    expect(check.problems).toEqual([expect.stringMatching(/^image 1 .* is not an image of this decision$/), expect.stringMatching(/^the receipt names an image that was not given/)]);

    // A changed rule result breaks the signature.
    const edited = JSON.parse(JSON.stringify(receipt));
    edited.payload.documents[0].rules.results[0].result = 'failed';
    edited.payload.status_label = 'Rejected';
    expect(verifyReceipt(edited, publicKey).problems).toContain('the signature does not verify with this public key');
  });

  it('purges the receipts with the verification (they hold its extracted data)', async () => {
    const { QueryCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const v = await verificationWith(t.api, passport({ document: { number: 'PURGE1' } }), bill(), bodyFor('Ada', 'Lovelace', 'PURGE1'));
    await processed(v);
    const receipts = () => t.h.runtime.doc.send(new QueryCommand({ TableName: LOCAL_TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `RECEIPT#${v}` } }));
    expect((await receipts()).Items).toHaveLength(1);
    expect((await t.api('DELETE', `/api/v1/default/verifications/${v}`)).status).toBe(204);
    await t.h.runtime.doc.send(
      new UpdateCommand({ TableName: LOCAL_TABLE, Key: { PK: `VER#${v}`, SK: 'VER' }, UpdateExpression: 'SET GSI3SK = :sk', ExpressionAttributeValues: { ':sk': `2000-01-01T00:00:00.000000Z#${v}` } }),
    );
    expect((await t.h.runtime.purgeNow()).purged).toBe(1);
    expect((await receipts()).Items).toEqual([]);
  });

  it('answers 404 for a verification of another flow or none', async () => {
    expect((await t.api('GET', '/api/v1/default/verifications/ver_01JD8X6Z4Q8R5K2M7N9P3T6V1W/receipt')).status).toBe(404);
  });
});

describe('replay', () => {
  it('shows the decisions a threshold change would change, and none with the thresholds of the run', async () => {
    // A near name (similarity 0.875 on the surname) passes only when the name pass threshold is lowered.
    const near = await processed(await verificationWith(t.api, passport({ person: { given_names: 'Ada', surname: 'Lovelase' }, document: { number: 'R1001' } }), bill(), bodyFor('Ada', 'Lovelace', 'R1001')));
    expect(near.status_label).toBe('Double Check');
    const exact = await processed(await verificationWith(t.api, passport({ document: { number: 'R1002' } }), bill(), bodyFor('Ada', 'Lovelace', 'R1002')));
    expect(exact.status_label).toBe('Approved');

    const today = replayDeps(t.h.runtime.doc, LOCAL_TABLE, thresholds, flowsFile);
    const unchanged = await replayVerification(today, near.id);
    expect(unchanged).toMatchObject({ recorded: 'Double Check', replayed: 'Double Check', changed: false, rules: [] });

    const lowered = replayDeps(t.h.runtime.doc, LOCAL_TABLE, { ...thresholds, name: { pass: 0.85, review: 0.7 } }, flowsFile);
    const results = await Promise.all([near.id, exact.id].map((id) => replayVerification(lowered, id)));
    expect(results[0]).toMatchObject({ recorded: 'Double Check', replayed: 'Approved', changed: true });
    expect(results[0]?.rules).toEqual(expect.arrayContaining([expect.objectContaining({ rule: 'person.last_name', before: 'review', after: 'passed' })]));
    expect(results[1]).toMatchObject({ recorded: 'Approved', replayed: 'Approved', changed: false });
    const printed = formatReplay(results.filter((r) => r !== undefined));
    expect(printed).toContain(`CHANGED ${near.id}: Double Check -> Approved`);
    expect(printed).toContain('2 replayed, 1 decision(s) would change');

    // Over the flow: the near match is among the changed ones.
    const flow = await replayFlow(lowered, 'default');
    expect(flow.filter((r) => r.changed).map((r) => r.verificationId)).toContain(near.id);
  });
});
