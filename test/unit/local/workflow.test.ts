import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import validator from 'asl-validator';
import { LocalWorkflowStarter, substituteDefinition } from '../../../src/adapters/local/workflow-runner';
import { WORKFLOW_TASKS } from '../../../statemachines/tasks';

const definition = substituteDefinition(
  readFileSync(join(__dirname, '..', '..', '..', 'statemachines', 'verification.asl.json'), 'utf8'),
  Object.fromEntries(WORKFLOW_TASKS.map((t) => [t.substitution, `arn:aws:lambda:us-east-1:123456789012:function:${t.state}`])),
);

describe('state machine file', () => {
  it('is valid Amazon States Language', () => {
    const result = validator(definition);
    expect(result.errorsText()).toBe('');
    expect(result.isValid).toBe(true);
  });

  it('substitutes every Task resource', () => {
    expect(JSON.stringify(definition)).not.toMatch(/\$\{/);
  });

  it('runs in process with aws-local-stepfunctions, once per (verification, run)', async () => {
    const calls: unknown[] = [];
    const runner = new LocalWorkflowStarter(definition, {
      StartRun: async (input: unknown) => {
        calls.push(input);
        return { stale: true, items: [] };
      },
    });
    await runner.start({ verificationId: 'ver_1', run: 1 });
    await runner.start({ verificationId: 'ver_1', run: 1 });
    await runner.idle();
    expect(runner.failures).toEqual([]);
    expect(calls).toEqual([{ verificationId: 'ver_1', run: 1 }]);
  });

  it('records a failing execution by error name', async () => {
    const failing = { StartAt: 'Boom', States: { Boom: { Type: 'Fail', Error: 'Boom', Cause: 'test' } } };
    const errors: string[] = [];
    const runner = new LocalWorkflowStarter(failing, {}, (name) => errors.push(name));
    await runner.start({ verificationId: 'ver_2', run: 1 });
    await runner.idle();
    expect(errors).toEqual(['ver_2-run-1']);
    expect(runner.failures).toHaveLength(1);
  });
});
