import type { Comment, DocumentRecord, HistoryEntry, Verification, VerificationAggregate, VerificationChange } from './entities';
import { InvalidStateError } from './errors';
import type { ContextType, Flow } from './flow';
import { keepComments, withDecisions } from './retention';
import { DocumentStatus, VerificationStatus, verificationStatusLabel } from './status';

/** Who acts, for manual actions: the comment and e-mail are required by the spec for audit. */
export interface Actor {
  comment: string;
  email: string;
  /** The name of the API token that made the request: recorded beside the e-mail, which the caller only claims. */
  token?: string | undefined;
}

/** Time and identifiers for one change; supplied by the use case from its Clock and IdGenerator. */
export interface ChangeContext {
  now: string;
  newId: (prefix: 'hist' | 'dec' | 'cmt') => string;
}

/** The user recorded for changes made without an acting e-mail (Submit, automatic processing). */
export const SYSTEM_USER = 'system';

function assertNotCanceled(v: Verification, message = 'Verification is canceled'): void {
  if (v.status === VerificationStatus.Canceled) throw new InvalidStateError(message);
}

/** The uploaded documents covering every context the flow requires, or a 400 naming what is missing. */
export function requiredDocuments(flow: Flow, documents: DocumentRecord[]): DocumentRecord[] {
  const missing = flow.required_contexts.filter((ctx) => !documents.some((d) => d.contextType === ctx));
  if (missing.length > 0) {
    throw new InvalidStateError(`Not all required documents have been uploaded: missing ${missing.join(', ')}`);
  }
  return documents.filter((d) => flow.required_contexts.includes(d.contextType));
}

function change(
  agg: VerificationAggregate,
  ctx: ChangeContext,
  to: VerificationStatus,
  user: string | Actor,
  comment: string | null,
  patch: Partial<Verification> = {},
): VerificationChange {
  const before = agg.verification;
  const comments: Comment[] =
    comment === null ? [] : [{ id: ctx.newId('cmt'), content: comment, status: to, private: false, createdAt: ctx.now }];
  const verification: Verification = {
    ...before,
    ...patch,
    status: to,
    updatedAt: ctx.now,
    version: before.version + 1,
    comments: keepComments([...before.comments, ...comments]),
  };
  const history: HistoryEntry = {
    id: ctx.newId('hist'),
    fromStatus: before.status,
    toStatus: to,
    user: typeof user === 'string' ? user : user.email,
    ...(typeof user !== 'string' && user.token !== undefined && { token: user.token }),
    comment,
    createdAt: ctx.now,
    changedFields: [],
  };
  return {
    verification,
    previous: before,
    expectedVersion: before.version,
    documents: [],
    requiredDocuments: [],
    history: [history],
    startWorkflow: false,
  };
}

function withDocuments(
  docs: DocumentRecord[],
  ctx: ChangeContext,
  status: DocumentStatus,
  extra: (d: DocumentRecord) => Partial<DocumentRecord> = () => ({}),
): DocumentRecord[] {
  return docs.map((d) => ({ ...d, ...extra(d), status, updatedAt: ctx.now, version: d.version + 1 }));
}

function startRun(c: VerificationChange): VerificationChange {
  c.verification.run += 1;
  c.startWorkflow = true;
  return c;
}

/** Started → Submitted when every required document is uploaded; starts processing. */
export function submit(agg: VerificationAggregate, flow: Flow, ctx: ChangeContext): VerificationChange {
  if (agg.verification.status !== VerificationStatus.Started) {
    throw new InvalidStateError(
      `Verification is not in Started status (current status: ${verificationStatusLabel(agg.verification.status)})`,
    );
  }
  const docs = requiredDocuments(flow, agg.documents);
  const c = change(agg, ctx, VerificationStatus.Submitted, SYSTEM_USER, null, { submittedAt: ctx.now });
  c.requiredDocuments = docs;
  return startRun(c);
}

/** Any status but Canceled → Submitted; documents back to Uploaded with extraction cleared; processing restarts. */
export function resubmit(agg: VerificationAggregate, flow: Flow, actor: Actor, ctx: ChangeContext): VerificationChange {
  assertNotCanceled(agg.verification);
  const required = requiredDocuments(flow, agg.documents);
  const c = change(agg, ctx, VerificationStatus.Submitted, actor, actor.comment, { submittedAt: ctx.now });
  c.documents = withDocuments(agg.documents, ctx, DocumentStatus.Uploaded, () => ({ extractedData: null, extractionConfidence: null, extractionInfo: null, rules: null }));
  c.requiredDocuments = required.filter((r) => !c.documents.some((d) => d.id === r.id));
  return startRun(c);
}

function decide(agg: VerificationAggregate, actor: Actor, ctx: ChangeContext, approve: boolean): VerificationChange {
  const v = agg.verification;
  assertNotCanceled(v);
  const target = approve ? VerificationStatus.Approved : VerificationStatus.Rejected;
  if (v.status === target) throw new InvalidStateError(`Verification is already ${approve ? 'approved' : 'rejected'}`);
  const docStatus = approve ? DocumentStatus.Approved : DocumentStatus.Rejected;
  const c = change(agg, ctx, target, actor, actor.comment);
  c.documents = withDocuments(agg.documents, ctx, docStatus, (d) => ({
    decisions: withDecisions(d.decisions, [{ id: ctx.newId('dec'), status: docStatus, validation_workflow: 'manual', createdAt: ctx.now, updatedAt: ctx.now }]),
  }));
  return c;
}

export function approve(agg: VerificationAggregate, actor: Actor, ctx: ChangeContext): VerificationChange {
  return decide(agg, actor, ctx, true);
}

export function reject(agg: VerificationAggregate, actor: Actor, ctx: ChangeContext): VerificationChange {
  return decide(agg, actor, ctx, false);
}

/** Any status but Canceled → Canceled (terminal); every document Canceled. */
export function cancel(agg: VerificationAggregate, actor: Actor, ctx: ChangeContext): VerificationChange {
  assertNotCanceled(agg.verification, 'Verification is already canceled');
  const c = change(agg, ctx, VerificationStatus.Canceled, actor, actor.comment);
  c.documents = withDocuments(agg.documents, ctx, DocumentStatus.Canceled);
  return c;
}

/** Update Verification with `status`: any status but Canceled → the given one; Double Check re-runs validation. */
export function setStatus(
  agg: VerificationAggregate,
  status: VerificationStatus,
  actor: Actor,
  ctx: ChangeContext,
  patch: Partial<Verification>,
  changedFields: string[] = [],
): VerificationChange {
  assertNotCanceled(agg.verification);
  // One rule with Approve, Reject and Cancel: a status change changes the status. Double Check is the
  // exception: setting it again re-runs validation (the spec's way to check again).
  if (status === agg.verification.status && status !== VerificationStatus.DoubleCheck) {
    throw new InvalidStateError(`Verification is already ${verificationStatusLabel(status)}`);
  }
  const c = change(agg, ctx, status, actor, actor.comment, patch);
  for (const h of c.history) h.changedFields = changedFields;
  return status === VerificationStatus.DoubleCheck ? startRun(c) : c;
}

/**
 * Statuses in which the checks were made (or are being made) against the expected data: changing it
 * on its own would leave the rules and the decision silently stale, so it changes only together with
 * a status (comment and e-mail: recorded in history with the fields changed).
 */
const CHECKED_STATUSES: readonly VerificationStatus[] = [
  VerificationStatus.Submitted,
  VerificationStatus.Approved,
  VerificationStatus.Rejected,
  VerificationStatus.DoubleCheck,
];

/** Update Verification without `status`: data merged, no history entry; expected data is frozen once checked. */
export function updateData(agg: VerificationAggregate, ctx: ChangeContext, patch: Partial<Verification>, changedFields: string[] = []): VerificationChange {
  assertNotCanceled(agg.verification);
  const before = agg.verification;
  if (changedFields.length > 0 && CHECKED_STATUSES.includes(before.status)) {
    throw new InvalidStateError(
      `Expected data cannot change while the verification is ${verificationStatusLabel(before.status)}: its checks were made against it ` +
        `(${changedFields.join(', ')}). Send status 5 (Double Check) with a comment and email in the same request to change it and run the checks again.`,
    );
  }
  return {
    verification: { ...before, ...patch, updatedAt: ctx.now, version: before.version + 1 },
    previous: before,
    expectedVersion: before.version,
    documents: [],
    requiredDocuments: [],
    history: [],
    startWorkflow: false,
  };
}

/** The expiry job: a verification still Started after its flow's limit moves to Expired (user `system`). */
export function expire(agg: VerificationAggregate, ctx: ChangeContext): VerificationChange {
  if (agg.verification.status !== VerificationStatus.Started) throw new InvalidStateError('Verification is not in Started status');
  return change(agg, ctx, VerificationStatus.Expired, SYSTEM_USER, null);
}

/** Statuses in which a pipeline run may still write. */
export function isCurrentRun(agg: VerificationAggregate | undefined, run: number): agg is VerificationAggregate {
  if (!agg) return false;
  const { status } = agg.verification;
  return (
    agg.verification.run === run &&
    agg.verification.processedRun < run &&
    (status === VerificationStatus.Submitted || status === VerificationStatus.DoubleCheck)
  );
}

/** What an automatic run decides, and why a decision that looks like Approved is held back. */
export interface AutomaticOutcome {
  status: VerificationStatus;
  /** Required contexts of the flow with no document: the run cannot approve. */
  missing: ContextType[];
}

/**
 * The verification status the documents present lead to. Approved only when every context the flow
 * requires has a document and every document is Approved; any rejected document → Rejected; a
 * required context with no document (deleted during the run, or never there) → Double Check.
 * The caller must write the result conditioned on exactly these documents (see `finishProcessing`).
 */
export function automaticOutcome(flow: Pick<Flow, 'required_contexts'>, documents: DocumentRecord[]): AutomaticOutcome {
  const missing = flow.required_contexts.filter((ctx) => !documents.some((d) => d.contextType === ctx));
  if (missing.length > 0) return { status: VerificationStatus.DoubleCheck, missing };
  if (documents.some((d) => d.status === DocumentStatus.Rejected)) return { status: VerificationStatus.Rejected, missing };
  if (documents.length > 0 && documents.every((d) => d.status === DocumentStatus.Approved)) return { status: VerificationStatus.Approved, missing };
  return { status: VerificationStatus.DoubleCheck, missing };
}

/**
 * The end of an automatic run: history user `system`; `note` (why a run failed) is kept as a
 * private comment, never shown by the API.
 */
export function finishProcessing(agg: VerificationAggregate, to: VerificationStatus, ctx: ChangeContext, note?: string): VerificationChange {
  const c = change(agg, ctx, to, SYSTEM_USER, null, { processedRun: agg.verification.run });
  // A document the run never finished (a failed run: one document's failure ends the Map) is not left
  // In progress: it goes to Double check with the verification, in the same write.
  const unfinished = agg.documents.filter((d) => d.status === DocumentStatus.InProgress);
  c.documents = withDocuments(unfinished, ctx, DocumentStatus.DoubleCheck);
  // The decision stands on the documents read: the write fails if any of them changed or went away.
  c.requiredDocuments = agg.documents.filter((d) => !unfinished.includes(d));
  if (note) {
    c.verification.comments = keepComments([
      ...c.verification.comments,
      { id: ctx.newId('cmt'), content: note, status: to, private: true, createdAt: ctx.now },
    ]);
  }
  return c;
}

/** The aggregate as it is after `change` committed: what the action responses show. */
export function applyChange(agg: VerificationAggregate, c: VerificationChange): VerificationAggregate {
  const changed = new Map(c.documents.map((d) => [d.id, d]));
  return {
    verification: c.verification,
    documents: agg.documents.map((d) => changed.get(d.id) ?? d),
    history: [...agg.history, ...c.history],
  };
}
