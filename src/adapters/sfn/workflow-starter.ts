import { DescribeExecutionCommand, ExecutionAlreadyExists, ExecutionDoesNotExist, type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { ExecutionState, RunExecution, WorkflowStarter } from '../../ports/workflow-starter';

/**
 * Execution name for one attempt at one run: a second start of the same attempt is
 * ExecutionAlreadyExists, treated as success; a restart by the run sweeper is a new attempt.
 */
export function executionName(verificationId: string, run: number, attempt = 0): string {
  return attempt === 0 ? `${verificationId}-run-${run}` : `${verificationId}-run-${run}-a${attempt}`;
}

/** The ARN of a named execution of a state machine (how Step Functions builds it). */
export function executionArn(stateMachineArn: string, name: string): string {
  return `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
}

export class SfnWorkflowStarter implements WorkflowStarter {
  constructor(
    private readonly client: SFNClient,
    private readonly stateMachineArn: string,
  ) {}

  async start(input: RunExecution): Promise<void> {
    try {
      await this.client.send(
        new StartExecutionCommand({
          stateMachineArn: this.stateMachineArn,
          name: executionName(input.verificationId, input.run, input.attempt),
          input: JSON.stringify({ verificationId: input.verificationId, run: input.run }),
        }),
      );
    } catch (error) {
      if (error instanceof ExecutionAlreadyExists || (error as Error).name === 'ExecutionAlreadyExists') return;
      throw error;
    }
  }

  async state(input: RunExecution): Promise<ExecutionState> {
    try {
      const out = await this.client.send(
        new DescribeExecutionCommand({ executionArn: executionArn(this.stateMachineArn, executionName(input.verificationId, input.run, input.attempt)) }),
      );
      return out.status === 'RUNNING' || out.status === 'PENDING_REDRIVE' ? 'running' : 'ended';
    } catch (error) {
      if (error instanceof ExecutionDoesNotExist || (error as Error).name === 'ExecutionDoesNotExist') return 'absent';
      throw error;
    }
  }
}
