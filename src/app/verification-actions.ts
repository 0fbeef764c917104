import type { VerificationAggregate, VerificationChange } from '../domain/entities';
import type { Flow } from '../domain/flow';
import { applyChange, type ChangeContext } from '../domain/transitions';
import type { EventType } from '../events/events';
import type { Deps, RequestInfo } from './deps';
import { publishAfterCommit, verificationEvent } from './events';
import { loadVerification, withConflictRetry } from './load';
import { presentDocument, presentVerification } from './present';

export function changeContext(deps: Pick<Deps, 'clock' | 'ids'>): ChangeContext {
  return { now: deps.clock.now(), newId: (prefix) => deps.ids.next(prefix) };
}

/** Verification with its documents: the shape of Submit, Resubmit, Approve, Reject and Cancel responses. */
export async function presentWithDocuments(deps: Deps, req: RequestInfo, flow: Flow, agg: VerificationAggregate) {
  const documents = await Promise.all(agg.documents.map((d) => presentDocument(deps, flow, d)));
  return { ...presentVerification(deps, req, agg.verification, flow.name), documents };
}

/**
 * The common path of every state change on a verification: load (404/400), decide (domain rules),
 * save conditionally (retrying on a lost race), then start processing when the change asks for it.
 * Processing starts only after the state is committed; the execution name makes a repeated start harmless.
 */
export async function applyVerificationChange(
  deps: Deps,
  flowPath: string,
  id: string,
  decide: (agg: VerificationAggregate, flow: Flow, ctx: ChangeContext) => VerificationChange,
): Promise<{ flow: Flow; aggregate: VerificationAggregate }> {
  return withConflictRetry(async () => {
    const { flow, aggregate } = await loadVerification(deps, flowPath, id);
    const change = decide(aggregate, flow, changeContext(deps));
    await deps.verifications.save(change);
    if (change.startWorkflow) await deps.workflow.start({ verificationId: id, run: change.verification.run });
    return { flow, aggregate: applyChange(aggregate, change) };
  });
}

/** Runs a manual or API action and answers with the verification and its documents; `event` is published once committed. */
export async function runAction(
  deps: Deps,
  req: RequestInfo,
  flowPath: string,
  id: string,
  decide: (agg: VerificationAggregate, flow: Flow, ctx: ChangeContext) => VerificationChange,
  event?: EventType,
) {
  const { flow, aggregate } = await applyVerificationChange(deps, flowPath, id, decide);
  if (event) await publishAfterCommit(deps, async () => [await verificationEvent(deps, event, flow, aggregate)]);
  return presentWithDocuments(deps, req, flow, aggregate);
}
