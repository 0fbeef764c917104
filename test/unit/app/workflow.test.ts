import { createDocument } from '../../../src/app/create-document';
import { createVerification } from '../../../src/app/create-verification';
import { submitVerification } from '../../../src/app/submit-verification';
import { evaluateDocument } from '../../../src/app/workflow/evaluate-document';
import { extractDocument } from '../../../src/app/workflow/extract-document';
import { failRun, finishRun } from '../../../src/app/workflow/finish-run';
import { startRun } from '../../../src/app/workflow/start-run';
import { preExtract } from '../../../src/app/workflow/pre-extract';
import { sweepRuns } from '../../../src/app/workflow/sweep-runs';
import { executionEnded } from '../../../src/app/workflow/execution-ended';
import type { FixedClock } from '../../fakes/in-memory';
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

  it('does not leave a document In progress when the run fails before it was evaluated: Double check with the verification', async () => {
    const { deps, store, id } = await submitted();
    const [item] = (await startRun(deps, { verificationId: id, run: 1 })).items;
    expect(store.docs.get(item!.documentId)?.status).toBe(2);
    expect(await failRun(deps, { verificationId: id, run: 1, error: { Error: 'States.TaskFailed' } })).toEqual({ stale: false, status: 'Double Check' });
    expect(store.docs.get(item!.documentId)?.status).toBe(5);
    expect(store.verifications.get(id)!.status).toBe(5);
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

describe('the check across documents', () => {
  /** A photo ID and a proof of address on another name, each extracted and evaluated before the other is extracted, in `order`. */
  async function processedIn(order: ('PHOTO_ID' | 'PROOF_OF_ADDRESS')[]) {
    const f = fakeDeps();
    const address = { street: '1 Main St', city: 'Lyon', postal_code: '69002', country: 'FRA' };
    const v = await createVerification(f.deps, REQ, 'default', { person: { first_name: 'Ada', last_name: 'Lovelace' }, address });
    const photo = png(4, 4, 1, { person: { given_names: 'Ada', surname: 'Lovelace' }, document: { expiration_date: '2031-01-01' } });
    const bill = png(4, 4, 2, { person: { full_name: 'Ada King' }, address: { street: '1 Main St', city: 'Lyon', zip: '69002', country: 'FRA' }, document: { identified: 'true' } });
    await createDocument(f.deps, 'default', { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'FRA', front_side_data: b64(photo) } });
    await createDocument(f.deps, 'default', { verification: v.id, document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'FRA', front_side_data: b64(bill) } });
    await submitVerification(f.deps, REQ, 'default', v.id);
    const run = { verificationId: v.id, run: 1 };
    const { items } = await startRun(f.deps, run);
    const docOf = (ctx: string) => [...f.store.docs.values()].find((d) => d.contextType === ctx)!;
    for (const ctx of order) {
      const item = items.find((i) => i.documentId === docOf(ctx).id)!;
      await extractDocument(f.deps, item);
      await evaluateDocument(f.deps, item);
    }
    const finished = await finishRun(f.deps, run);
    const across = (ctx: string) => (docOf(ctx).rules?.results ?? []).filter((r) => r.name === 'consistency.name_across_documents');
    return { finished, photo: across('PHOTO_ID'), poa: across('PROOF_OF_ADDRESS'), poaStatus: docOf('PROOF_OF_ADDRESS').status };
  }

  it('is evaluated once, on the proof of address, whichever document finished first', async () => {
    const photoFirst = await processedIn(['PHOTO_ID', 'PROOF_OF_ADDRESS']);
    const billFirst = await processedIn(['PROOF_OF_ADDRESS', 'PHOTO_ID']);
    for (const got of [photoFirst, billFirst]) {
      expect(got.photo).toEqual([]);
      expect(got.poa).toEqual([expect.objectContaining({ result: 'review', expected: 'Ada Lovelace', extracted: 'Ada King', source: 'photo_id vs proof_of_address' })]);
    }
    expect(billFirst.finished).toEqual(photoFirst.finished);
    expect(billFirst.poa).toEqual(photoFirst.poa);
    expect(billFirst.poaStatus).toBe(photoFirst.poaStatus);
  });
});

describe('run sweeper', () => {
  const policy = { checkAfterSeconds: 60, maxRunSeconds: 600, maxAttempts: 3 };
  const later = (clock: FixedClock, seconds: number) => {
    clock.value = new Date(Date.parse(clock.value) + seconds * 1000).toISOString();
  };

  it('Submit commits a run ticket with the change, which the sweeper leaves alone for a quiet minute', async () => {
    const { deps, store, workflow, id } = await submitted();
    expect(store.runTickets.get(id)).toMatchObject({ verificationId: id, run: 1, attempt: 0 });
    expect(await sweepRuns(deps, policy)).toEqual({ cleared: 0, running: 0, restarted: 0, failed: 0 });
    expect(workflow.starts).toEqual([{ verificationId: id, run: 1 }]);
  });

  it('starts again a run with no live execution, then fails it to Double Check when its last attempt is lost too', async () => {
    const { deps, store, workflow, id } = await submitted();
    const clock = deps.clock as FixedClock;
    later(clock, 61);
    expect(await sweepRuns(deps, policy)).toMatchObject({ restarted: 1 });
    later(clock, 61);
    expect(await sweepRuns(deps, policy)).toMatchObject({ restarted: 1 });
    expect(workflow.starts.slice(1)).toEqual([
      { verificationId: id, run: 1, attempt: 1 },
      { verificationId: id, run: 1, attempt: 2 },
    ]);
    expect(store.verifications.get(id)?.status).toBe(2);
    later(clock, 61);
    expect(await sweepRuns(deps, policy)).toMatchObject({ failed: 1 });
    const v = store.verifications.get(id)!;
    expect(v.status).toBe(5);
    expect(v.comments).toEqual([expect.objectContaining({ private: true, content: expect.stringContaining('RunNotRunning after 3 attempts') })]);
    expect(store.runTickets.has(id)).toBe(false);
  });

  it('leaves a live execution alone until the bound, then restarts it', async () => {
    const { deps, workflow, id } = await submitted();
    const clock = deps.clock as FixedClock;
    workflow.states.set(`${id}#1#0`, 'running');
    later(clock, 61);
    expect(await sweepRuns(deps, policy)).toMatchObject({ running: 1, restarted: 0 });
    later(clock, 600);
    expect(await sweepRuns(deps, policy)).toMatchObject({ running: 0, restarted: 1 });
    expect(workflow.starts.at(-1)).toEqual({ verificationId: id, run: 1, attempt: 1 });
  });

  it('removes the ticket of a run that ended, and starts nothing', async () => {
    const { deps, store, workflow, id } = await submitted();
    await failRun(deps, { verificationId: id, run: 1, error: { Error: 'X' } });
    later(deps.clock as FixedClock, 61);
    expect(await sweepRuns(deps, policy)).toMatchObject({ cleared: 1, restarted: 0 });
    expect(store.runTickets.has(id)).toBe(false);
    expect(workflow.starts).toHaveLength(1);
  });

  it('with no wait (the local runtime at start) takes every ticket at once', async () => {
    const { deps, workflow, id } = await submitted();
    expect(await sweepRuns(deps, { ...policy, checkAfterSeconds: 0 })).toMatchObject({ restarted: 1 });
    expect(workflow.starts.at(-1)).toEqual({ verificationId: id, run: 1, attempt: 1 });
  });
});

describe('an execution that failed, timed out or was aborted', () => {
  it('runs the fail-run logic: Double Check with a private note naming the status', async () => {
    const { deps, store, id } = await submitted();
    const detail = { status: 'TIMED_OUT', name: `${id}-run-1`, input: JSON.stringify({ verificationId: id, run: 1 }) };
    expect(await executionEnded(deps, detail)).toEqual({ stale: false, status: 'Double Check' });
    expect(store.verifications.get(id)?.comments).toEqual([expect.objectContaining({ private: true, content: expect.stringContaining('Execution.TIMED_OUT') })]);
    expect(await executionEnded(deps, detail)).toEqual({ stale: true, status: null });
  });

  it('ignores status changes that are not a verification run', async () => {
    const { deps, store, id } = await submitted();
    expect(await executionEnded(deps, { status: 'SUCCEEDED', input: JSON.stringify({ verificationId: id, run: 1 }) })).toEqual({ stale: true, status: null });
    expect(await executionEnded(deps, { status: 'FAILED', input: '{"other":1}' })).toEqual({ stale: true, status: null });
    expect(store.verifications.get(id)?.status).toBe(2);
  });
});
