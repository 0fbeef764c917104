import { ExecutionAlreadyExists, type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { WorkflowStarter } from '../../ports/workflow-starter';

/** Execution name for one run: a second start of the same run is ExecutionAlreadyExists, treated as success. */
export function executionName(verificationId: string, run: number): string {
  return `${verificationId}-run-${run}`;
}

export class SfnWorkflowStarter implements WorkflowStarter {
  constructor(
    private readonly client: SFNClient,
    private readonly stateMachineArn: string,
  ) {}

  async start(input: { verificationId: string; run: number }): Promise<void> {
    try {
      await this.client.send(
        new StartExecutionCommand({
          stateMachineArn: this.stateMachineArn,
          name: executionName(input.verificationId, input.run),
          input: JSON.stringify(input),
        }),
      );
    } catch (error) {
      if (error instanceof ExecutionAlreadyExists || (error as Error).name === 'ExecutionAlreadyExists') return;
      throw error;
    }
  }
}
