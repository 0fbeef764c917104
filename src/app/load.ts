import type { VerificationAggregate } from '../domain/entities';
import { ConflictError, NotFoundError, WrongFlowError } from '../domain/errors';
import type { Flow } from '../domain/flow';
import type { Deps } from './deps';

export async function requireFlow(deps: Pick<Deps, 'flows'>, path: string): Promise<Flow> {
  const flow = await deps.flows.get(path);
  if (!flow) throw new NotFoundError(`Flow '${path}' not found`);
  return flow;
}

/** The flow, then the verification (404 when absent or deleted), then the flow check (400). */
export async function loadVerification(
  deps: Pick<Deps, 'flows' | 'verifications'>,
  flowPath: string,
  id: string,
): Promise<{ flow: Flow; aggregate: VerificationAggregate }> {
  const flow = await requireFlow(deps, flowPath);
  const aggregate = await deps.verifications.get(id);
  if (!aggregate) throw new NotFoundError('Verification not found');
  if (aggregate.verification.flow !== flow.path) throw new WrongFlowError('Verification', flow.path, aggregate.verification.flow);
  return { flow, aggregate };
}

/**
 * Runs read → decide → conditional write again when a concurrent writer won (ConflictError).
 * The re-read sees the winner's state, so the retry either applies on top of it or fails with the
 * domain error that state implies (e.g. "already canceled").
 */
export async function withConflictRetry<T>(attempt: () => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ConflictError) || i >= tries) throw error;
      await new Promise((r) => setTimeout(r, 5 * i + Math.random() * 10 * i));
    }
  }
}
