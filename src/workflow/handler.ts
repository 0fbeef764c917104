import * as v from 'valibot';
import type { Deps } from '../app/deps';
import { getDeps } from '../container';
import { logger, withLambdaContext } from '../logger';

const RunInputSchema = v.looseObject({
  verificationId: v.pipe(v.string(), v.regex(/^ver_[0-9A-Z]{26}$/)),
  run: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

/**
 * Wraps a workflow task: validates the execution input, logs ids only, and lets errors reach
 * Step Functions (whose Retry/Catch decide) under their own names.
 */
export function workflowTask<K extends keyof Deps, I extends { verificationId: string; run: number }, R>(
  name: string,
  /** The ports the task uses: only these are built, and only these are handed to it. */
  ports: readonly K[],
  run: (deps: Pick<Deps, K>, input: I) => Promise<R>,
) {
  return withLambdaContext(async (event: unknown): Promise<R> => {
    const input = v.parse(RunInputSchema, event) as unknown as I;
    logger.appendKeys({ task: name, verificationId: input.verificationId, run: input.run });
    try {
      const result = await run(await getDeps(ports), input);
      logger.info('task done');
      return result;
    } catch (error) {
      logger.error('workflow task failed', { errorName: (error as Error).name });
      throw error;
    }
  });
}
