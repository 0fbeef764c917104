import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import validator from 'asl-validator';
import { LocalWorkflowStarter } from '../../../src/adapters/local/workflow-runner';

const definition = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'statemachines', 'verification.asl.json'), 'utf8'));

describe('state machine file', () => {
  it('is valid Amazon States Language', () => {
    const result = validator(definition);
    expect(result.errorsText()).toBe('');
    expect(result.isValid).toBe(true);
  });

  it('runs in process with aws-local-stepfunctions, once per (verification, run)', async () => {
    const runner = new LocalWorkflowStarter(definition, {});
    await runner.start({ verificationId: 'ver_1', run: 1 });
    await runner.start({ verificationId: 'ver_1', run: 1 });
    await runner.idle();
    expect(runner.failures).toEqual([]);
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
