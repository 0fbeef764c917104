import { portraitOf, selfieOf } from '../../scripts/documents/faces';
import { generateDocument } from '../../scripts/documents/generate';
import { useNpmStart } from './npm-start';

/**
 * `duplicate.face` through the offline face path (face-api descriptors of real photographs, Human's
 * presentation models), in `npm start`'s own process (its engines load ES modules jest cannot), on
 * the `photo-id` flow (a passport and a selfie). The faces are the demo photographs of
 * @vladmandic/face-api read from node_modules (scripts/documents/faces.ts): two crops of one face
 * are "the same face" (descriptor distance 0.32–0.48 measured), different women of the same
 * photographs are the lookalikes (≥ 0.50).
 */
const started = useNpmStart();

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${started.url}${path}`, { method, headers: { Authorization: `Bearer ${started.token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** A passport (generated from `seed`, printing `portrait`) and a selfie, on the photo-id flow; resolves with the processed verification. */
async function verify(seed: number, portrait: Buffer, selfie: Buffer) {
  const passport = await generateDocument('passport', 'scanned', seed, portrait);
  const p = passport.identity;
  const body = { person: { first_name: p.givenNames, last_name: p.surname, date_of_birth: p.dateOfBirth }, documents: { photo_id: { type: 'Passport', country: passport.country, number: p.documentNumber } } };
  const created = await api('POST', '/api/v1/photo-id/verifications', body);
  expect(created.status).toBe(201);
  const v = created.body.data.id as string;
  for (const [context, type, bytes] of [['PHOTO_ID', 1, passport.front], ['SELFIE', 6, selfie]] as const) {
    const res = await api('POST', '/api/v1/photo-id/documents', { verification: v, document: { context_type: context, type, country: passport.country, front_side_data: bytes.toString('base64') } });
    expect(res.status).toBe(201);
  }
  expect((await api('PUT', `/api/v1/photo-id/verifications/${v}/submit`)).status).toBe(200);
  for (let i = 0; i < 720; i++) {
    const got = (await api('GET', `/api/v1/photo-id/verifications/${v}`)).body.data;
    if (!['Submitted', 'In Progress'].includes(got.status_label)) return got;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the verification was still processing after 180 s');
}

const rule = (got: any, name: string) => got.documents.find((d: any) => d.document_type.type_label === 'Selfie').rules.results.find((r: any) => r.name === name);

describe('duplicate faces through the offline face model', () => {
  it("flags a second selfie of the same face on another person's verification, naming the first; not a different face", async () => {
    const first = await verify(31, await portraitOf(0), await selfieOf(0));
    expect(rule(first, 'duplicate.face')).toMatchObject({ result: 'passed', extracted: 'none' });
    // Human's models scored the selfie's face (photographs, not live captures: pass or review, never not_evaluated).
    for (const name of ['selfie.antispoof', 'selfie.passive_liveness']) expect(rule(first, name)).toMatchObject({ result: expect.stringMatching(/^(passed|review)$/), score: expect.any(Number), source: 'face_model' });

    // Another passport holder (other name and date of birth) with another picture of the same face.
    const second = await verify(32, await portraitOf(0), await portraitOf(0));
    expect(second.expected_data.person).not.toEqual(first.expected_data.person);
    expect(rule(second, 'duplicate.face')).toMatchObject({ result: 'review', other_verification_ids: [first.id], source: 'index' });
    expect(second.status_label).toBe('Double Check');

    // A different face (another woman of the same photograph) on a third person's verification.
    const third = await verify(33, await portraitOf(1), await selfieOf(1));
    expect(rule(third, 'duplicate.face')).toMatchObject({ result: 'passed', extracted: 'none' });
  }, 600_000);

  it('does not flag the same person verified twice (same date of birth and name)', async () => {
    const first = await verify(34, await portraitOf(4), await selfieOf(4));
    const again = await verify(34, await portraitOf(4), await portraitOf(4));
    expect(rule(again, 'duplicate.face')).toMatchObject({ result: 'passed', extracted: 'same person', other_verification_ids: [first.id] });
  }, 600_000);
});
