import { createDocument } from '../../../src/app/create-document';
import { createVerification } from '../../../src/app/create-verification';
import { submitVerification } from '../../../src/app/submit-verification';
import { evaluateDocument } from '../../../src/app/workflow/evaluate-document';
import { extractDocument } from '../../../src/app/workflow/extract-document';
import { failRun, finishRun } from '../../../src/app/workflow/finish-run';
import { startRun } from '../../../src/app/workflow/start-run';
import { preExtract } from '../../../src/app/workflow/pre-extract';
import { updateDocument } from '../../../src/app/update-document';
import { b64, png } from '../../fixtures/images';
import { fakeDeps, REQ } from '../../fakes/in-memory';

async function submitted() {
  const f = fakeDeps();
  const v = await createVerification(f.deps, REQ, 'photo-id', { person: { first_name: 'Ada', last_name: 'Lovelace' } });
  const photo = png(4, 4, 1, { person: { given_names: 'Ada', surname: 'Lovelace' }, document: { expiration_date: '2031-01-01' } });
  await createDocument(f.deps, 'photo-id', { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'FRA', front_side_data: b64(photo) } });
  await submitVerification(f.deps, REQ, 'photo-id', v.id);
  return { ...f, id: v.id };
}

describe('pipeline tasks', () => {
  it('run start → extract → evaluate → finish, each step conditioned on the run', async () => {
    const { deps, store, id } = await submitted();
    const start = await startRun(deps, { verificationId: id, run: 1 });
    expect(start.stale).toBe(false);
    const [item] = start.items;
    expect(store.docs.get(item!.documentId)?.status).toBe(2);
    await extractDocument(deps, item!);
    expect(store.docs.get(item!.documentId)?.extractedData?.person.surname).toBe('Lovelace');
    expect(await evaluateDocument(deps, item!)).toMatchObject({ stale: false, status: 'Approved' });
    expect(await finishRun(deps, { verificationId: id, run: 1 })).toEqual({ stale: false, status: 'Approved' });
    expect(store.history.get(id)?.at(-1)).toMatchObject({ user: 'system', fromStatus: 2, toStatus: 3 });
  });

  it('drops the work of a superseded run', async () => {
    const { deps, store, id } = await submitted();
    expect(await startRun(deps, { verificationId: id, run: 2 })).toEqual({ stale: true, items: [] });
    const [item] = (await startRun(deps, { verificationId: id, run: 1 })).items;
    store.verifications.get(id)!.run = 2;
    expect(await extractDocument(deps, item!)).toMatchObject({ stale: true });
    expect(store.docs.get(item!.documentId)?.extractedData).toBeNull();
    expect(await finishRun(deps, { verificationId: id, run: 1 })).toEqual({ stale: true, status: null });
  });

  it('never approves when a required document was deleted during the run: Double Check naming the context', async () => {
    const { deps, store, id } = await submitted();
    const [item] = (await startRun(deps, { verificationId: id, run: 1 })).items;
    await extractDocument(deps, item!);
    expect(await evaluateDocument(deps, item!)).toMatchObject({ status: 'Approved' });
    // Delete Document is allowed in any status (spec): the photo ID goes before FinishRun writes.
    const doc = store.docs.get(item!.documentId)!;
    await deps.documents.delete(doc);
    expect(await finishRun(deps, { verificationId: id, run: 1 })).toEqual({ stale: false, status: 'Double Check' });
    const v = store.verifications.get(id)!;
    expect(v.comments).toEqual([expect.objectContaining({ private: true, content: expect.stringContaining('PHOTO_ID') })]);
  });

  it('decides again when a document changes between its read and its conditional write', async () => {
    const { deps, store, id } = await submitted();
    const [item] = (await startRun(deps, { verificationId: id, run: 1 })).items;
    await extractDocument(deps, item!);
    await evaluateDocument(deps, item!);
    // The first save loses to a deletion that lands between FinishRun's read and its write.
    const save = deps.verifications.save.bind(deps.verifications);
    let first = true;
    deps.verifications.save = async (c, e) => {
      if (first) {
        first = false;
        await deps.documents.delete(store.docs.get(item!.documentId)!);
      }
      return save(c, e);
    };
    expect(await finishRun(deps, { verificationId: id, run: 1 })).toEqual({ stale: false, status: 'Double Check' });
    expect(store.verifications.get(id)!.status).toBe(5);
  });

  it('fail-safe leaves Double Check with a private comment, never stuck in Submitted', async () => {
    const { deps, store, id } = await submitted();
    expect(await failRun(deps, { verificationId: id, run: 1, error: { Error: 'States.TaskFailed' } })).toEqual({ stale: false, status: 'Double Check' });
    const v = store.verifications.get(id)!;
    expect(v.status).toBe(5);
    expect(v.comments).toEqual([expect.objectContaining({ private: true, content: expect.stringContaining('States.TaskFailed') })]);
  });
});

/** Fake deps whose extractor counts its calls, and a photo-id verification. */
async function countingExtractor() {
  const f = fakeDeps();
  const calls = { n: 0 };
  const real = f.deps.extractor;
  f.deps.extractor = { name: real.name, extract: (input) => (calls.n++, real.extract(input)) };
  const v = await createVerification(f.deps, REQ, 'photo-id', { person: { first_name: 'Ada', last_name: 'Lovelace' } });
  return { f, calls, v };
}

describe('extraction ahead of Submit', () => {
  it('extracts on DocumentUploaded and lets the run reuse it while the images are unchanged', async () => {
    const { f, calls, v } = await countingExtractor();
    const photo = png(4, 4, 1, { person: { given_names: 'Ada', surname: 'Lovelace' }, document: { expiration_date: '2031-01-01' } });
    await createDocument(f.deps, 'photo-id', { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'FRA', front_side_data: b64(photo) } });
    const [uploaded] = f.events.published;
    expect(uploaded?.type).toBe('DocumentUploaded');
    expect(await preExtract(f.deps, uploaded!.detail)).toEqual({ cached: true });
    expect(await preExtract(f.deps, uploaded!.detail)).toEqual({ cached: false });
    expect(calls.n).toBe(1);
    expect(f.store.docs.get((uploaded!.detail.data.document as { id: string }).id)?.status).toBe(1);

    await submitVerification(f.deps, REQ, 'photo-id', v.id);
    const [item] = (await startRun(f.deps, { verificationId: v.id, run: 1 })).items;
    await extractDocument(f.deps, item!);
    expect(calls.n).toBe(1);
    expect(f.store.docs.get(item!.documentId)?.extractedData?.person.surname).toBe('Lovelace');
  });

  it('extracts again when the images changed after the early extraction', async () => {
    const { f, calls, v } = await countingExtractor();
    const d = await createDocument(f.deps, 'photo-id', { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'FRA', front_side_data: b64(png(4, 4, 1, { person: { surname: 'Old' } })) } });
    await preExtract(f.deps, f.events.published[0]!.detail);
    await updateDocument(f.deps, 'photo-id', d.id, { verification: v.id, document: { front_side_data: b64(png(4, 4, 2, { person: { surname: 'New' } })) } });
    await submitVerification(f.deps, REQ, 'photo-id', v.id);
    const [item] = (await startRun(f.deps, { verificationId: v.id, run: 1 })).items;
    await extractDocument(f.deps, item!);
    expect(calls.n).toBe(2);
    expect(f.store.docs.get(d.id)?.extractedData?.person.surname).toBe('New');
  });
});

describe('retried tasks do not double-apply', () => {
  it('runs every task twice (as Step Functions may after a crash) and records one decision and one outcome', async () => {
    const { deps, store, id } = await submitted();
    const run = { verificationId: id, run: 1 };
    const [item] = (await startRun(deps, run)).items;
    expect((await startRun(deps, run)).items).toEqual([item]);
    await extractDocument(deps, item!);
    await extractDocument(deps, item!);
    await evaluateDocument(deps, item!);
    expect(await evaluateDocument(deps, item!)).toMatchObject({ stale: false, status: 'Approved' });
    expect(store.docs.get(item!.documentId)?.decisions).toHaveLength(1);
    await finishRun(deps, run);
    expect(await finishRun(deps, run)).toEqual({ stale: true, status: null });
    expect(store.history.get(id)?.filter((h) => h.user === 'system' && h.fromStatus === 2)).toHaveLength(1);
  });

  it('records a Double Check outcome once even though Double Check keeps the run current', async () => {
    const { deps, store, id } = await submitted();
    await failRun(deps, { verificationId: id, run: 1, error: { Error: 'X' } });
    expect(await failRun(deps, { verificationId: id, run: 1, error: { Error: 'X' } })).toEqual({ stale: true, status: null });
    expect(store.history.get(id)?.filter((h) => h.toStatus === 5)).toHaveLength(1);
  });
});
