import type { VerificationAggregate, VerificationChange } from '../domain/entities';
import type { Flow } from '../domain/flow';
import { type Actor, applyChange, type ChangeContext } from '../domain/transitions';
import type { EventType } from '../events/events';
import { changeContext } from './change-context';
import type { Deps, RequestInfo } from './deps';
import { logger } from '../logger';
import { publishCommitted, verificationEvent } from './events';
import { failRun } from './workflow/finish-run';
import { loadVerification, withConflictRetry } from './load';
import { presentDocument, presentVerification } from './present';

/** Presenting a verification with its widget links and its documents' signed image links. */
export type PresentDeps = Pick<Deps, 'blobs' | 'sessionSecret' | 'publicBaseUrl'>;
/**
 * A state change: load, decide, save with its event (outbox), publish. `workflow` only for the
 * operations that may start processing; a change that asks for it elsewhere fails loudly.
 */
export type ChangeDeps = Pick<Deps, 'flows' | 'verifications' | 'clock' | 'ids' | 'events' | 'outbox'> & Partial<Pick<Deps, 'workflow'>>;
/** A manual or API action answered with the verification and its documents. */
export type ActionDeps = ChangeDeps & PresentDeps;

/** Verification with its documents: the shape of Submit, Resubmit, Approve, Reject and Cancel responses. */
export async function presentWithDocuments(deps: PresentDeps, req: RequestInfo, flow: Flow, agg: VerificationAggregate) {
  const documents = await Promise.all(agg.documents.map((d) => presentDocument(deps, flow, d)));
  return { ...presentVerification(deps, req, agg.verification, flow.name), documents };
}

/**
 * The common path of every state change on a verification: load (404/400), decide (domain rules),
 * save conditionally (retrying on a lost race), then start processing when the change asks for it.
 * Processing starts only after the state is committed; the execution name makes a repeated start harmless.
 */
export async function applyVerificationChange(
  deps: ChangeDeps,
  flowPath: string,
  id: string,
  decide: (agg: VerificationAggregate, flow: Flow, ctx: ChangeContext) => VerificationChange,
  event?: EventType,
): Promise<{ flow: Flow; aggregate: VerificationAggregate }> {
  return withConflictRetry(async () => {
    const { flow, aggregate } = await loadVerification(deps, flowPath, id);
    const change = decide(aggregate, flow, changeContext(deps));
    const after = applyChange(aggregate, change);
    // The event is committed with the change (outbox) and published right after.
    const events = event ? [await verificationEvent(deps, event, flow, after)] : [];
    await deps.verifications.save(change, events);
    await publishCommitted(deps, events);
    if (change.startWorkflow && !(await startProcessing(deps, id, change.verification.run))) {
      // Processing could not be started: the run's own fail-safe takes over, so nothing is left stuck in Submitted.
      const reloaded = await deps.verifications.get(id);
      return { flow, aggregate: reloaded ?? after };
    }
    return { flow, aggregate: after };
  });
}

/**
 * Starts the pipeline after the state change committed. If the start fails (after the SDK's own
 * retries), the verification goes to Double Check with a private comment, exactly as a failed run
 * would: the request still succeeds and a reviewer takes over.
 */
async function startProcessing(deps: ChangeDeps, verificationId: string, run: number): Promise<boolean> {
  const workflow = deps.workflow;
  if (!workflow) throw new Error('This operation is not configured to start processing');
  try {
    await workflow.start({ verificationId, run });
    return true;
  } catch (error) {
    const name = (error as Error).name || 'Error';
    logger.error('workflow start failed', { verificationId, run, errorName: name });
    await failRun(deps, { verificationId, run, error: { Error: `StartFailed.${name}` } });
    return false;
  }
}

/**
 * The actor of a manual change with the token that made the request: any API token may act (an
 * integrator's back office acts for its staff, naming them by e-mail); the e-mail is what the caller
 * claims, the token's name is the credential it used, and history records both.
 */
export function actedBy(req: RequestInfo, actor: Actor): Actor {
  return { ...actor, ...(req.caller && { token: req.caller.name }) };
}

/** Runs a manual or API action and answers with the verification and its documents; `event` is committed with it. */
export async function runAction(
  deps: ActionDeps,
  req: RequestInfo,
  flowPath: string,
  id: string,
  decide: (agg: VerificationAggregate, flow: Flow, ctx: ChangeContext) => VerificationChange,
  event?: EventType,
) {
  const { flow, aggregate } = await applyVerificationChange(deps, flowPath, id, decide, event);
  return presentWithDocuments(deps, req, flow, aggregate);
}

/**
 * A repeat of an action whose change committed but whose response was lost (see the Idempotency-Key
 * handling): the same shape, from the verification as it is now.
 */
export async function presentActed(deps: Pick<Deps, 'flows' | 'verifications'> & PresentDeps, req: RequestInfo, flowPath: string, id: string) {
  const { flow, aggregate } = await loadVerification(deps, flowPath, id);
  return presentWithDocuments(deps, req, flow, aggregate);
}
