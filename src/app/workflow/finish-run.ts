import { ConflictError } from '../../domain/errors';
import { VerificationStatus, verificationStatusLabel } from '../../domain/status';
import { applyChange, finishProcessing, isCurrentRun, outcomeOf } from '../../domain/transitions';
import { publishCommitted, verificationEvent } from '../events';
import { requireFlow } from '../load';
import type { Deps } from '../deps';
import { changeContext } from '../change-context';
import type { RunInput } from './run';

async function finish(deps: Deps, input: RunInput, decide: (agg: Parameters<typeof outcomeOf>[0]) => [VerificationStatus, string?]) {
  const agg = await deps.verifications.get(input.verificationId);
  if (!isCurrentRun(agg, input.run)) return { stale: true, status: null };
  const [status, note] = decide(agg.documents);
  const change = finishProcessing(agg, status, changeContext(deps), note);
  // Automatic processing that ends in Approved or Rejected is a finished verification too (README "Events").
  const finished = status === VerificationStatus.Approved || status === VerificationStatus.Rejected;
  const events = finished ? [await verificationEvent(deps, 'VerificationFinished', await requireFlow(deps, agg.verification.flow), applyChange(agg, change))] : [];
  try {
    await deps.verifications.save(change, events);
  } catch (error) {
    // A manual action won the race: it has the last word.
    if (error instanceof ConflictError) return { stale: true, status: null };
    throw error;
  }
  await publishCommitted(deps, events);
  return { stale: false, status: verificationStatusLabel(status) };
}

/** Last task: the verification moves to Approved, Rejected or Double Check from its documents' decisions (user `system`). */
export function finishRun(deps: Deps, input: RunInput) {
  return finish(deps, input, (docs) => [outcomeOf(docs)]);
}

/** Catch-all of the state machine: never leave a verification stuck in Submitted; a reviewer takes over. */
export function failRun(deps: Deps, input: RunInput & { error?: { Error?: string } }) {
  const reason = input.error?.Error ?? 'unknown error';
  return finish(deps, input, () => [VerificationStatus.DoubleCheck, `Automatic processing failed (${reason}); review by hand.`]);
}
