import { join } from 'node:path';
import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';

/** statemachines/verification.asl.json: the same file the local runtime executes. */
export const DEFINITION_FILE = join(__dirname, '..', 'statemachines', 'verification.asl.json');

/** The processing pipeline's state machine (logging and tracing on). */
export class VerificationWorkflow extends Construct {
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const logs = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_YEAR, removalPolicy: RemovalPolicy.RETAIN });
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      definitionBody: DefinitionBody.fromFile(DEFINITION_FILE),
      tracingEnabled: true,
      logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
    });
    Validations.of(this.stateMachine).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing and CloudWatch Logs delivery actions only accept Resource "*" (AWS requirement).',
    });
  }
}
