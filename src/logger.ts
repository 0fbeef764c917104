import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

/** One logger per process. Log ids and error names only: never bodies, names, addresses or images. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'idv' });

/**
 * For the functions that run without middy (events, jobs, workflow tasks, the authorizer) what
 * `injectLambdaContext` does in the HTTP stack: the Lambda context on every line of the invocation
 * (`cold_start`, `function_request_id`, `function_name`), and no key appended by one invocation left
 * on the next. The local runtime calls these handlers without a context: nothing is added then.
 */
export function withLambdaContext<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A): Promise<R> => {
    const context = args[1] as Context | undefined;
    if (context?.awsRequestId) logger.addContext(context);
    try {
      return await handler(...args);
    } finally {
      logger.resetKeys();
    }
  };
}
