import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { DetectDocumentTextCommand } from '@aws-sdk/client-textract';
import { CompareFacesCommand } from '@aws-sdk/client-rekognition';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { LocalWorkflowStarter, substituteDefinition, type TaskHandlers } from '../../../src/adapters/local/workflow-runner';
import { extractionClients } from '../../../src/adapters/textract/aws-clients';
import { createClients } from '../../../src/clients';
import { loadConfig } from '../../../src/config';
import { ConflictError, ServiceUnavailableError } from '../../../src/domain/errors';
import { LAMBDA_SERVICE_ERRORS, WORKFLOW_TASKS } from '../../../statemachines/tasks';

const text = readFileSync(join(__dirname, '..', '..', '..', 'statemachines', 'verification.asl.json'), 'utf8');
const definition = substituteDefinition(
  text,
  Object.fromEntries(WORKFLOW_TASKS.map((t) => [t.substitution, `arn:aws:lambda:us-east-1:123456789012:function:${t.state}`])),
);

interface State {
  Type: string;
  Retry?: { ErrorEquals: string[] }[];
  Catch?: { ErrorEquals: string[] }[];
  ItemProcessor?: { States: Record<string, State> };
  TimeoutSeconds?: number;
}

/** Every state of the machine, nested Map iterators included. */
function states(machine: { States: Record<string, State> }): [string, State][] {
  return Object.entries(machine.States).flatMap(([name, s]) => [[name, s] as [string, State], ...(s.ItemProcessor ? states(s.ItemProcessor) : [])]);
}

/** The errors our task code throws that mean "try again": the domain's names, never an SDK exception's (README "Errors"). */
const RETRYABLE_THROWN = [new ServiceUnavailableError().name, new ConflictError().name];

/** A client of any AWS SDK v3 service whose every request fails with `name`. */
function failing<C extends { middlewareStack: { add: (...a: never[]) => unknown } }>(client: C, name: string): C {
  (client.middlewareStack as unknown as { add: (m: unknown, o: unknown) => void }).add(
    () => async () => {
      throw Object.assign(new Error(name), { name, $metadata: {} });
    },
    // Before signing and the SDK's retry step: the request fails the way a throttled service ends up failing.
    { step: 'build', name: 'fail' },
  );
  return client;
}

const config = loadConfig({ TABLE_NAME: 't', BUCKET_NAME: 'b', SESSION_SECRET: 's', AWS_REGION: 'us-east-1' });

describe('ErrorEquals names of the state machine', () => {
  const saved = { ...process.env };
  beforeAll(() => Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' }));
  afterAll(() => {
    process.env = saved;
  });

  it('name only States.*, Lambda service errors and the domain errors the task code throws', () => {
    const allowed = new Set<string>([...LAMBDA_SERVICE_ERRORS, ...RETRYABLE_THROWN]);
    const named = states(definition as { States: Record<string, State> }).flatMap(([state, s]) =>
      [...(s.Retry ?? []), ...(s.Catch ?? [])].flatMap((r) => r.ErrorEquals.map((name) => ({ state, name }))),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter(({ name }) => !name.startsWith('States.') && !allowed.has(name))).toEqual([]);
  });

  it('bounds every task by its own timeout, longer than its function may run (a hung invocation fails to FailRun, not at the hour)', () => {
    const tasks = states(definition as { States: Record<string, State> }).filter(([, s]) => s.Type === 'Task');
    expect(tasks.map(([name]) => name).sort()).toEqual(WORKFLOW_TASKS.map((t) => t.state).sort());
    // Functions run at most 30 s, extraction at most 300 s (lib/workflow.ts).
    for (const [name, s] of tasks) expect([name, (s.TimeoutSeconds ?? 0) > (name === 'ExtractDocument' ? 300 : 30)]).toEqual([name, true]);
  });

  it('retry, in every task but the fail-safe, the error a throttled or unavailable service surfaces as', async () => {
    // What the task code sees when DynamoDB, S3, Textract or Rekognition throttle or fail (the clients as the functions build them).
    const seen = new Set<string>();
    for (const name of ['ThrottlingException', 'ProvisionedThroughputExceededException', 'InternalServerError']) {
      const clients = createClients(config);
      const extraction = extractionClients(config);
      const errors = await Promise.all([
        failing(clients.dynamo, name).send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'x' } } })).catch((e: Error) => e),
        failing(clients.s3, name).send(new GetObjectCommand({ Bucket: 'b', Key: 'k' })).catch((e: Error) => e),
        failing(extraction.textract, name).send(new DetectDocumentTextCommand({ Document: { Bytes: new Uint8Array(1) } })).catch((e: Error) => e),
        failing(extraction.rekognition, name).send(new CompareFacesCommand({ SourceImage: { Bytes: new Uint8Array(1) }, TargetImage: { Bytes: new Uint8Array(1) } })).catch((e: Error) => e),
      ]);
      for (const e of errors) seen.add((e as Error).name);
    }
    expect([...seen]).toEqual([new ServiceUnavailableError().name]);
    for (const [state, s] of states(definition as { States: Record<string, State> })) {
      if (s.Type !== 'Task' || state === 'FailRun') continue;
      expect({ state, retried: (s.Retry ?? []).flatMap((r) => r.ErrorEquals) }).toEqual({ state, retried: expect.arrayContaining([...seen]) });
    }
  });

  it.each(['StartRun', 'ExtractDocument', 'EvaluateDocument', 'FinishRun'])('retries %s when it throws ServiceUnavailableError, instead of failing the run', async (throttled) => {
    const calls: Record<string, number> = {};
    const once =
      (state: string, result: (input: Record<string, unknown>) => unknown): TaskHandlers[string] =>
      async (input) => {
        calls[state] = (calls[state] ?? 0) + 1;
        if (state === throttled && calls[state] === 1) throw new ServiceUnavailableError();
        return result(input as Record<string, unknown>) as Awaited<ReturnType<TaskHandlers[string]>>;
      };
    const runner = new LocalWorkflowStarter(definition, {
      StartRun: once('StartRun', (i) => ({ stale: false, items: [{ ...i, documentId: 'doc_1' }] })),
      ExtractDocument: once('ExtractDocument', (i) => i),
      EvaluateDocument: once('EvaluateDocument', (i) => ({ ...i, stale: false })),
      FinishRun: once('FinishRun', () => ({ stale: false, status: 'Approved' })),
      FailRun: once('FailRun', () => ({ stale: false, status: 'Double Check' })),
    });
    await runner.start({ verificationId: 'ver_1', run: 1 });
    await runner.idle();
    expect(runner.failures).toEqual([]);
    expect(calls).toEqual({ StartRun: 1, ExtractDocument: 1, EvaluateDocument: 1, FinishRun: 1, [throttled]: 2 });
  });
});
