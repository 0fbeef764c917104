import type { DocumentRecord, VerificationAggregate } from '../../domain/entities';
import { ConflictError } from '../../domain/errors';
import type { Flow } from '../../domain/flow';
import { VerificationStatus, verificationStatusLabel } from '../../domain/status';
import { applyChange, automaticOutcome, type ChangeContext, finishProcessing, isCurrentRun } from '../../domain/transitions';
import { publishCommitted, verificationEvent } from '../events';
import { requireFlow } from '../load';
import type { Deps } from '../deps';
import { changeContext } from '../change-context';
import { acrossDocumentsRevision } from './evaluation';
import { recordReceipt } from './receipts';
import { METRIC } from '../../ports/metrics';
import type { RunInput } from './run';

/** Times FinishRun re-reads and decides again when its conditional write lost to a document change. */
const FINISH_TRIES = 5;

/**
 * Records the run's outcome. The write is conditioned on the verification's version and on every
 * document the decision was made from (same id, same version), so a document deleted or changed
 * between the read and the write makes the write fail; the outcome is then decided again from what
 * is there now. A manual action or a newer run makes the run stale: it has the last word.
 */
/** What recording a run's outcome uses. */
export type FinishDeps = Pick<Deps, 'verifications' | 'flows' | 'clock' | 'ids' | 'events' | 'outbox'> & Partial<Pick<Deps, 'metrics'>>;

/** Documents whose results FinishRun completes before deciding (the check across documents), from the verification as read. */
type Revise = (agg: VerificationAggregate, flow: Flow, ctx: ChangeContext) => DocumentRecord[];

async function finish(deps: FinishDeps, input: RunInput, decide: (docs: DocumentRecord[], flow: Flow) => [VerificationStatus, string?], revise?: Revise) {
  for (let attempt = 1; ; attempt++) {
    const agg = await deps.verifications.get(input.verificationId);
    if (!isCurrentRun(agg, input.run)) return { stale: true, status: null };
    const flow = await requireFlow(deps, agg.verification.flow);
    const ctx = changeContext(deps);
    const revised = revise?.(agg, flow, ctx) ?? [];
    const [status, note] = decide(agg.documents.map((d) => revised.find((r) => r.id === d.id) ?? d), flow);
    const change = finishProcessing(agg, status, ctx, note);
    // A revised document is written in the same transaction, conditioned on the version it was read at
    // (instead of the check the decision makes on the others).
    change.documents = [...change.documents.filter((d) => !revised.some((r) => r.id === d.id)), ...revised];
    change.requiredDocuments = change.requiredDocuments.filter((d) => !revised.some((r) => r.id === d.id));
    // Automatic processing that ends in Approved or Rejected is a finished verification too (docs/reference/events-and-webhooks.md).
    const finished = status === VerificationStatus.Approved || status === VerificationStatus.Rejected;
    const events = finished ? [await verificationEvent(deps, 'VerificationFinished', flow, applyChange(agg, change))] : [];
    try {
      await deps.verifications.save(change, events);
    } catch (error) {
      // Re-read: either a manual action won (stale above) or a document changed under the decision.
      if (error instanceof ConflictError && attempt < FINISH_TRIES) continue;
      throw error;
    }
    const outcome = verificationStatusLabel(status);
    // Counted by the pipeline's functions, which name the port; an API function failing a run it could not start does not carry it.
    if ('metrics' in deps) deps.metrics?.record(METRIC.verificationsDecided, 1, 'Count', { outcome });
    await publishCommitted(deps, events);
    return { stale: false, status: outcome };
  }
}

/**
 * Last task: the verification moves to Approved, Rejected or Double Check from the documents present
 * (user `system`). A context the flow requires with no document means Double Check, with a private
 * comment naming it, never Approved.
 */
export async function finishRun(deps: FinishDeps & Pick<Deps, 'receipts' | 'receiptSigner' | 'ruleThresholds'>, input: RunInput) {
  const out = await finish(
    deps,
    input,
    (docs, flow) => {
      const { status, missing } = automaticOutcome(flow, docs);
      return missing.length > 0 ? [status, `Required documents missing when processing finished: ${missing.join(', ')}; review by hand.`] : [status];
    },
    (agg, flow, ctx) => acrossDocumentsRevision(agg, flow, deps.ruleThresholds, ctx),
  );
  // Also when stale: a retry after a crash between the decision and its receipt makes the receipt.
  await recordReceipt(deps, input);
  return out;
}

/** Catch-all of the state machine: never leave a verification stuck in Submitted; a reviewer takes over. */
export function failRun(deps: FinishDeps, input: RunInput & { error?: { Error?: string } }) {
  const reason = input.error?.Error ?? 'unknown error';
  return finish(deps, input, () => [VerificationStatus.DoubleCheck, `Automatic processing failed (${reason}); review by hand.`]);
}
