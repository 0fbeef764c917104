import * as v from 'valibot';
import { logger } from '../../logger';
import { UNFINISHED_EXECUTION_STATUSES } from '../../../statemachines/tasks';
import { type FinishDeps, failRun } from './finish-run';


const DetailSchema = v.looseObject({
  status: v.picklist(UNFINISHED_EXECUTION_STATUSES),
  input: v.pipe(
    v.string(),
    v.parseJson(),
    v.looseObject({ verificationId: v.pipe(v.string(), v.regex(/^ver_[0-9A-Z]{26}$/)), run: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  ),
});

/**
 * An execution that failed, timed out or was stopped: its Catch could not run (a timeout or an abort
 * cannot be caught; FailRun may have used up its retries), so the fail-run logic runs here. Harmless
 * when the run already ended or was superseded (failRun is conditioned on the run).
 */
export async function executionEnded(deps: FinishDeps, detail: unknown): Promise<{ stale: boolean; status: string | null }> {
  const parsed = v.safeParse(DetailSchema, detail);
  if (!parsed.success) {
    logger.warn('execution status change ignored: not a verification run');
    return { stale: true, status: null };
  }
  const { status, input } = parsed.output;
  return failRun(deps, { verificationId: input.verificationId, run: input.run, error: { Error: `Execution.${status}` } });
}
