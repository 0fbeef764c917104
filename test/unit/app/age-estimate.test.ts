import { createDocument } from '../../../src/app/create-document';
import { createVerification } from '../../../src/app/create-verification';
import { submitVerification } from '../../../src/app/submit-verification';
import { evaluateDocument } from '../../../src/app/workflow/evaluate-document';
import { extractDocument } from '../../../src/app/workflow/extract-document';
import { finishRun } from '../../../src/app/workflow/finish-run';
import { startRun } from '../../../src/app/workflow/start-run';
import { b64, png } from '../../fixtures/images';
import { fakeDeps, REQ } from '../../fakes/in-memory';

/** A photo ID born 1990-06-15 and a selfie whose face model estimates `age`, through the run's tasks in the flow `photo-id` with the age check set. */
async function run(age: number, gap: number | undefined) {
  const f = fakeDeps();
  const flow = (await f.deps.flows.get('photo-id'))!;
  flow.checks = { ...flow.checks!, ...(gap !== undefined && { age_estimate_max_gap_years: gap }) };
  const v = await createVerification(f.deps, REQ, 'photo-id', { person: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-06-15' } });
  const photo = png(4, 4, 1, { person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-06-15' }, document: { expiration_date: '2031-01-01' } });
  const selfie = png(4, 4, 2, { document: { selfie_comparison: '95', identified: 'true' }, face: { age } });
  await createDocument(f.deps, 'photo-id', { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'FRA', front_side_data: b64(photo) } });
  await createDocument(f.deps, 'photo-id', { verification: v.id, document: { context_type: 'SELFIE', type: 6, country: 'FRA', front_side_data: b64(selfie) } });
  await submitVerification(f.deps, REQ, 'photo-id', v.id);
  const { items } = await startRun(f.deps, { verificationId: v.id, run: 1 });
  for (const item of items) {
    await extractDocument(f.deps, item);
    await evaluateDocument(f.deps, item);
  }
  const outcome = await finishRun(f.deps, { verificationId: v.id, run: 1 });
  const selfieDoc = [...f.store.docs.values()].find((d) => d.contextType === 'SELFIE')!;
  return { outcome, selfie: selfieDoc };
}

describe('the selfie age check in the pipeline', () => {
  it('sends a face estimated far from the photo ID age to Double Check, recorded on the selfie once both are read', async () => {
    const { outcome, selfie } = await run(12, 15);
    expect(outcome).toEqual({ stale: false, status: 'Double Check' });
    expect(selfie.rules?.results).toContainEqual(expect.objectContaining({ name: 'selfie.age_estimate', result: 'review', extracted: 'about 12 years' }));
    expect(selfie.status).toBe(5);
  });

  it('approves a face estimated within the gap', async () => {
    const { outcome, selfie } = await run(41, 15);
    expect(outcome).toEqual({ stale: false, status: 'Approved' });
    expect(selfie.rules?.results).toContainEqual(expect.objectContaining({ name: 'selfie.age_estimate', result: 'passed' }));
  });

  it('judges no age in a flow that does not set the check', async () => {
    const { outcome, selfie } = await run(12, undefined);
    expect(outcome).toEqual({ stale: false, status: 'Approved' });
    expect(selfie.rules?.results.some((r) => r.name.startsWith('selfie.age'))).toBe(false);
  });
});
