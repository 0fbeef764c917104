/**
 * The functions without middy (events, jobs, workflow tasks, the authorizer) log with the Lambda
 * context as the HTTP functions do (issue 13, item 4), and keep no key from one invocation to the next.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import { handlerFiles } from '../../src/http/routes';
import { capturedLogLines } from '../fixtures/log-lines';

const ROOT = join(__dirname, '..', '..');

const context = (awsRequestId: string) => ({ awsRequestId, functionName: 'publish-outbox', functionVersion: '$LATEST', invokedFunctionArn: 'arn:aws:lambda:eu-west-1:1:function:publish-outbox', memoryLimitInMB: '512' }) as Context;

describe('withLambdaContext', () => {
  const previous = { POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL, AWS_LAMBDA_INITIALIZATION_TYPE: process.env.AWS_LAMBDA_INITIALIZATION_TYPE };
  afterAll(() => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('puts cold_start and the request id on every line, and drops the keys an invocation appended', async () => {
    process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
    // As Lambda sets it: Powertools reports a cold start only for on-demand environments.
    process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
    let withLambdaContext!: typeof import('../../src/logger').withLambdaContext;
    let logger!: typeof import('../../src/logger').logger;
    jest.isolateModules(() => ({ logger, withLambdaContext } = jest.requireActual<typeof import('../../src/logger')>('../../src/logger')));
    const handler = withLambdaContext(async (event: { id: string }) => {
      logger.info('before');
      logger.appendKeys({ verificationId: event.id });
      logger.info('after');
      if (event.id === 'fail') throw new Error('boom');
      return event.id;
    });
    const log = capturedLogLines();
    try {
      await (handler as (e: { id: string }, c: Context) => Promise<string>)({ id: 'a' }, context('req-1'));
      await expect((handler as (e: { id: string }, c: Context) => Promise<string>)({ id: 'fail' }, context('req-2'))).rejects.toThrow('boom');
      await handler({ id: 'local' });
    } finally {
      log.restore();
    }
    const lines = log.lines().map((l) => [l.message, l.function_request_id, l.cold_start, l.function_name, l.verificationId]);
    expect(lines).toEqual([
      ['before', 'req-1', true, 'publish-outbox', undefined],
      ['after', 'req-1', true, 'publish-outbox', 'a'],
      // The next invocation starts without the previous one's keys, even after a failure.
      ['before', 'req-2', false, 'publish-outbox', undefined],
      ['after', 'req-2', false, 'publish-outbox', 'fail'],
      // Called locally without a context: the lines carry none of a previous one's keys.
      ['before', 'req-2', false, 'publish-outbox', undefined],
      ['after', 'req-2', false, 'publish-outbox', 'local'],
    ]);
  });

  it('wraps the handler of every function the route table does not serve', () => {
    const http = new Set(handlerFiles());
    const files = ['authorizer', ...['events', 'jobs', 'workflow'].flatMap((dir) => readdirSync(join(ROOT, 'functions', dir)).map((f) => `${dir}/${f.replace(/\.ts$/, '')}`))];
    const unwrapped = files.filter((f) => !http.has(f) && !/export const handler = (withLambdaContext|workflowTask)\(/.test(readFileSync(join(ROOT, 'functions', `${f}.ts`), 'utf8')));
    expect(unwrapped).toEqual([]);
    expect(readFileSync(join(ROOT, 'src', 'workflow', 'handler.ts'), 'utf8')).toMatch(/return withLambdaContext\(/);
  });
});
