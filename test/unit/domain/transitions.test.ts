import type { DocumentRecord, Verification, VerificationAggregate } from '../../../src/domain/entities';
import { emptyExpectedData } from '../../../src/domain/expected-data';
import { InvalidStateError } from '../../../src/domain/errors';
import { resolveFlows } from '../../../src/domain/flow';
import { emptyExtractedData } from '../../../src/domain/rules';
import { DocumentStatus, VerificationStatus } from '../../../src/domain/status';
import { applyChange, approve, automaticOutcome, cancel, reject, resubmit, setStatus, submit, updateData } from '../../../src/domain/transitions';
import flowsFile from '../../../config/flows.json';
import { KEPT_DECISIONS } from '../../../src/domain/retention';

const [defaultFlow] = resolveFlows(flowsFile);
const flow = defaultFlow!;
let n = 0;
const ctx = { now: '2026-01-01T00:00:00.000001Z', newId: (p: string) => `${p}_${++n}` };
const actor = { comment: 'why', email: 'a@b.co' };

function verification(status: VerificationStatus = VerificationStatus.Started): Verification {
  return {
    id: 'ver_1', flow: 'default', vendorReference: null, vendorState: null, expectedData: emptyExpectedData(), status,
    submittedAt: null, createdAt: 'c', updatedAt: 'u', version: 3, run: 0, processedRun: 0, comments: [], expiresAt: 'e',
  };
}

function doc(context: DocumentRecord['contextType'], id = `doc_${context}`): DocumentRecord {
  return {
    id, verificationId: 'ver_1', flow: 'default', contextType: context, typeId: 1, country: 'FRA', status: DocumentStatus.Extracted,
    front: { key: 'k', contentType: 'image/png' }, back: null, extractedData: emptyExtractedData(), extractionConfidence: { 'person.surname': 0.9 }, rules: { outcome: 'passed', results: [] },
    decisions: [], reportSha256: null, createdAt: 'c', updatedAt: 'u', version: 1,
  };
}

const agg = (status?: VerificationStatus, docs = [doc('PHOTO_ID'), doc('PROOF_OF_ADDRESS')]): VerificationAggregate => ({
  verification: verification(status),
  documents: docs,
  history: [],
});

describe('submit', () => {
  it('moves Started to Submitted, sets submitted_at, bumps version and run, and requires the documents it counted', () => {
    const c = submit(agg(), flow, ctx);
    expect(c.verification).toMatchObject({ status: VerificationStatus.Submitted, submittedAt: ctx.now, version: 4, run: 1 });
    expect(c.expectedVersion).toBe(3);
    expect(c.startWorkflow).toBe(true);
    expect(c.requiredDocuments.map((d) => d.id)).toEqual(['doc_PHOTO_ID', 'doc_PROOF_OF_ADDRESS']);
    expect(c.history).toEqual([expect.objectContaining({ fromStatus: 1, toStatus: 2, user: 'system', comment: null })]);
  });

  it('refuses a status other than Started', () => {
    expect(() => submit(agg(VerificationStatus.Submitted), flow, ctx)).toThrow(/not in Started status \(current status: Submitted\)/);
  });

  it('names the missing contexts', () => {
    expect(() => submit(agg(undefined, [doc('SELFIE')]), flow, ctx)).toThrow('Not all required documents have been uploaded: missing PHOTO_ID, PROOF_OF_ADDRESS');
  });
});

describe('manual actions', () => {
  it('approve records a manual decision on every document and a public comment', () => {
    const c = approve(agg(VerificationStatus.DoubleCheck), actor, ctx);
    expect(c.verification.status).toBe(VerificationStatus.Approved);
    expect(c.documents.every((d) => d.status === DocumentStatus.Approved && d.version === 2)).toBe(true);
    expect(c.documents[0]!.decisions).toEqual([expect.objectContaining({ status: DocumentStatus.Approved, validation_workflow: 'manual' })]);
    expect(c.verification.comments).toEqual([expect.objectContaining({ content: 'why', status: VerificationStatus.Approved, private: false })]);
    expect(c.history[0]).toMatchObject({ user: 'a@b.co', comment: 'why', fromStatus: VerificationStatus.DoubleCheck });
    expect(c.startWorkflow).toBe(false);
  });

  it.each([
    [approve, VerificationStatus.Approved, 'Verification is already approved'],
    [reject, VerificationStatus.Rejected, 'Verification is already rejected'],
    [cancel, VerificationStatus.Canceled, 'Verification is already canceled'],
  ])('refuses to repeat a final action', (fn, status, message) => {
    expect(() => fn(agg(status), actor, ctx)).toThrow(message);
  });

  it('refuses everything on a canceled verification', () => {
    const canceled = agg(VerificationStatus.Canceled);
    expect(() => approve(canceled, actor, ctx)).toThrow('Verification is canceled');
    expect(() => reject(canceled, actor, ctx)).toThrow('Verification is canceled');
    expect(() => resubmit(canceled, flow, actor, ctx)).toThrow('Verification is canceled');
    expect(() => setStatus(canceled, VerificationStatus.Hold, actor, ctx, {})).toThrow(InvalidStateError);
    expect(() => updateData(canceled, ctx, {})).toThrow('Verification is canceled');
  });

  it('resubmit resets documents, clears extraction and starts a new run', () => {
    const c = resubmit(agg(VerificationStatus.Rejected), flow, actor, ctx);
    expect(c.verification).toMatchObject({ status: VerificationStatus.Submitted, run: 1 });
    expect(c.documents.map((d) => [d.status, d.extractedData, d.rules])).toEqual([
      [DocumentStatus.Uploaded, null, null],
      [DocumentStatus.Uploaded, null, null],
    ]);
    expect(c.startWorkflow).toBe(true);
  });

  it('cancel cancels every document', () => {
    const c = cancel(agg(VerificationStatus.Approved), actor, ctx);
    expect(c.documents.map((d) => d.status)).toEqual([DocumentStatus.Canceled, DocumentStatus.Canceled]);
  });

  it('setStatus re-runs processing only for Double Check', () => {
    expect(setStatus(agg(), VerificationStatus.DoubleCheck, actor, ctx, {}).startWorkflow).toBe(true);
    expect(setStatus(agg(), VerificationStatus.Hold, actor, ctx, {}).startWorkflow).toBe(false);
  });

  it('setStatus refuses the status the verification already has, as Approve and Reject do; Double Check again re-runs validation', () => {
    expect(() => setStatus(agg(VerificationStatus.Approved), VerificationStatus.Approved, actor, ctx, {})).toThrow('Verification is already Approved');
    expect(() => setStatus(agg(VerificationStatus.Hold), VerificationStatus.Hold, actor, ctx, {})).toThrow(InvalidStateError);
    expect(setStatus(agg(VerificationStatus.DoubleCheck), VerificationStatus.DoubleCheck, actor, ctx, {}).startWorkflow).toBe(true);
  });

  it('records the token that acted beside the e-mail in the history entry', () => {
    expect(approve(agg(), { ...actor, token: 'backoffice' }, ctx).history[0]).toMatchObject({ user: 'a@b.co', token: 'backoffice' });
    expect(approve(agg(), actor, ctx).history[0]).not.toHaveProperty('token');
  });

  it('keeps the newest comments and decisions on the items, however many actions', () => {
    let current = agg(VerificationStatus.DoubleCheck);
    for (let i = 0; i < 40; i++) {
      const act = i % 2 === 0 ? approve : reject;
      current = applyChange(current, act(current, { ...actor, comment: `c${i}` }, ctx));
    }
    expect(current.verification.comments.map((c) => c.content)).toEqual(['c35', 'c36', 'c37', 'c38', 'c39']);
    for (const d of current.documents) expect(d.decisions).toHaveLength(KEPT_DECISIONS);
    // Every comment is on its own history entry.
    expect(current.history.map((h) => h.comment)).toHaveLength(40);
  });

  it('applyChange shows the committed state', () => {
    const before = agg(VerificationStatus.Submitted);
    const after = applyChange(before, approve(before, actor, ctx));
    expect(after.verification.status).toBe(VerificationStatus.Approved);
    expect(after.documents.map((d) => d.status)).toEqual([DocumentStatus.Approved, DocumentStatus.Approved]);
    expect(after.history).toHaveLength(1);
  });
});

describe('expected data once checked', () => {
  const patch = { vendorState: 'x' };
  it.each([VerificationStatus.Submitted, VerificationStatus.Approved, VerificationStatus.Rejected, VerificationStatus.DoubleCheck])(
    'refuses a change of expected data alone in status %i, and accepts other fields',
    (status) => {
      expect(() => updateData(agg(status), ctx, patch, ['person.last_name'])).toThrow(InvalidStateError);
      expect(updateData(agg(status), ctx, patch, []).verification.vendorState).toBe('x');
    },
  );

  it.each([VerificationStatus.Started, VerificationStatus.Expired, VerificationStatus.Hold])('accepts it in status %i, where nothing was checked yet', (status) => {
    expect(() => updateData(agg(status), ctx, patch, ['person.last_name'])).not.toThrow();
  });

  it('records the fields a status change altered in its history entry', () => {
    const c = setStatus(agg(VerificationStatus.Approved), VerificationStatus.DoubleCheck, actor, ctx, {}, ['address.city']);
    expect(c.history).toEqual([expect.objectContaining({ user: actor.email, changedFields: ['address.city'] })]);
  });
});

describe('automatic outcome', () => {
  const decided = (context: DocumentRecord['contextType'], status: DocumentStatus) => ({ ...doc(context), status });
  it('approves only when every required context has an approved document', () => {
    expect(automaticOutcome(flow, [decided('PHOTO_ID', DocumentStatus.Approved), decided('PROOF_OF_ADDRESS', DocumentStatus.Approved)])).toEqual({ status: VerificationStatus.Approved, missing: [] });
    expect(automaticOutcome(flow, [decided('PROOF_OF_ADDRESS', DocumentStatus.Approved)])).toEqual({ status: VerificationStatus.DoubleCheck, missing: ['PHOTO_ID'] });
    expect(automaticOutcome(flow, [])).toEqual({ status: VerificationStatus.DoubleCheck, missing: flow.required_contexts });
  });

  it('rejects on a rejected document only when nothing required is missing', () => {
    expect(automaticOutcome(flow, [decided('PHOTO_ID', DocumentStatus.Rejected), decided('PROOF_OF_ADDRESS', DocumentStatus.Approved)]).status).toBe(VerificationStatus.Rejected);
    expect(automaticOutcome(flow, [decided('PHOTO_ID', DocumentStatus.Rejected)]).status).toBe(VerificationStatus.DoubleCheck);
  });
});
