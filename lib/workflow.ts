import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CfnElement, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { DefinitionBody, LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { UNFINISHED_EXECUTION_STATUSES, WORKFLOW_TASKS } from '../statemachines/tasks';
import type { DataStore } from './data-store';
import { grantEntryPorts, ServiceFunction, type ServiceFunctionProps } from './service-function';

type ImageGrants = Pick<DataStore, 'grantImageRead'>;

/** statemachines/verification.asl.json: the same file the local runtime executes. */
export const DEFINITION_FILE = join(__dirname, '..', 'statemachines', 'verification.asl.json');

/** The optional modules the Textract extractor loads. */
export const EXTRACTION_MODULES = ['@aws-sdk/client-textract', '@aws-sdk/client-rekognition'] as const;

/** The small parsers the offline extractor bundles (its engines come as node_modules). */
export const OFFLINE_PARSERS = ['mrz'] as const;

/** Which extractors the extraction functions carry: the stack's default and any a flow names (config/flows.json). */
export interface ExtractionPlan {
  /** The stack's extractor (EXTRACTOR). */
  extractor: 'aws' | 'offline' | 'sandbox';
  aws: boolean;
  offline: boolean;
}

/** The props of a function that extracts documents (ExtractDocument, PreExtract) under a plan. */
export function extractionFunctionProps(plan: ExtractionPlan, environment: Record<string, string>): Omit<ServiceFunctionProps, 'file'> {
  const extractors = [plan.aws && 'aws', plan.offline && 'offline'].filter(Boolean).join(',');
  return {
    environment: { ...environment, EXTRACTORS: extractors },
    loads: [...(plan.aws ? EXTRACTION_MODULES : []), ...(plan.offline ? OFFLINE_PARSERS : [])],
    offlineEngines: plan.offline,
    // Measured locally: the engines peak near 1 GB with a passport, a bill and a selfie in parallel.
    memorySize: plan.offline ? 3008 : 1024,
    timeout: Duration.seconds(plan.offline ? 300 : 120),
  };
}

/** What extracting a document needs: its images, and Textract/Rekognition when they do the reading. */
export function grantExtraction(fn: ServiceFunction, images: ImageGrants, plan: ExtractionPlan): void {
  images.grantImageRead(fn);
  if (!plan.aws) return;
  fn.addToRolePolicy(new PolicyStatement({ actions: ['textract:AnalyzeID', 'textract:AnalyzeDocument', 'rekognition:CompareFaces'], resources: ['*'] }));
  Validations.of(fn).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: 'Textract AnalyzeID/AnalyzeDocument and Rekognition CompareFaces do not support resource-level permissions.',
  });
}

export interface VerificationWorkflowProps {
  table: ITable;
  images: ImageGrants;
  sessionSecret: ISecret;
  environment: Record<string, string>;
  extraction: ExtractionPlan;
  /** FinishRun publishes VerificationFinished. */
  bus: IEventBus;
}

/**
 * The processing pipeline: one Lambda per Task of the ASL file (statemachines/tasks.ts), their ARNs
 * substituted into the definition, logging and tracing on.
 */
export class VerificationWorkflow extends Construct {
  readonly stateMachine: StateMachine;
  readonly functions = new Map<string, ServiceFunction>();

  constructor(scope: Construct, id: string, props: VerificationWorkflowProps) {
    super(scope, id);
    const substitutions: Record<string, string> = {};
    for (const task of WORKFLOW_TASKS) {
      // Workflow tasks never start executions themselves (and must not depend on the state machine's ARN).
      const environment = props.environment;
      const fn = new ServiceFunction(this, `${task.state}Function`, {
        file: task.handler,
        ...(task.state === 'ExtractDocument' ? extractionFunctionProps(props.extraction, environment) : { environment, timeout: Duration.seconds(30) }),
      });
      grantEntryPorts(fn, task.handler, props);
      if (task.state === 'ExtractDocument') grantExtraction(fn, props.images, props.extraction);
      else props.images.grantImageRead(fn);
      substitutions[task.substitution] = fn.functionArn;
      this.functions.set(task.state, fn);
    }

    const logs = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_YEAR, removalPolicy: RemovalPolicy.RETAIN });
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      // Inlined rather than DefinitionBody.fromFile (an S3 asset): the template then shows the definition it deploys.
      definitionBody: DefinitionBody.fromString(readFileSync(DEFINITION_FILE, 'utf8')),
      definitionSubstitutions: substitutions,
      tracingEnabled: true,
      logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
    });
    for (const fn of this.functions.values()) {
      fn.grantInvoke(this.stateMachine);
      const logicalId = Stack.of(this).getLogicalId(fn.node.defaultChild as CfnElement);
      Validations.of(this.stateMachine).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>:*]`,
        reason: 'grantInvoke covers the versions and aliases of this one task function.',
      });
    }
    // A timeout or an abort cannot be caught, and FailRun can use up its retries: the status change runs the fail-run logic.
    const ended = new ServiceFunction(this, 'ExecutionEndedFunction', {
      file: 'events/execution-ended',
      environment: props.environment,
      timeout: Duration.seconds(30),
    });
    grantEntryPorts(ended, 'events/execution-ended', props);
    new Rule(this, 'ExecutionEndedRule', {
      description: 'Runs that failed, timed out or were aborted go to Double Check (the fail-run logic)',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: { status: [...UNFINISHED_EXECUTION_STATUSES], stateMachineArn: [this.stateMachine.stateMachineArn] },
      },
      targets: [new LambdaFunction(ended, { retryAttempts: 185, maxEventAge: Duration.hours(24) })],
    });
    Validations.of(this.stateMachine).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing and CloudWatch Logs delivery actions only accept Resource "*" (AWS requirement).',
    });
  }
}
