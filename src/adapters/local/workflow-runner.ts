import { type RunOptions, StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import type { ExecutionState, RunExecution, WorkflowStarter } from '../../ports/workflow-starter';
import { executionName } from '../sfn/workflow-starter';

/** A local stand-in for a Lambda ARN: the same handler function, called in process. */
/**
 * Replaces `${Name}` placeholders as CloudFormation's DefinitionSubstitutions do; locally each
 * Task gets a syntactically valid Lambda ARN, then the state name binds it to its handler.
 */
export function substituteDefinition(text: string, substitutions: Record<string, string>): object {
  return JSON.parse(text.replace(/\$\{(\w+)\}/g, (whole, name: string) => substitutions[name] ?? whole));
}

export type TaskHandlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;

/**
 * Executes the same ASL file the stack deploys, in process, binding each Task resource (a Lambda ARN
 * substitution such as `${ExtractFunctionArn}`) to the handler code the Lambda runs.
 */
export class LocalWorkflowStarter implements WorkflowStarter {
  private readonly started = new Set<string>();
  /** Names of the executions still going (what `state` reports as running). */
  private readonly live = new Set<string>();
  private readonly running = new Set<Promise<unknown>>();
  readonly failures: { name: string; error: string }[] = [];

  constructor(
    private readonly definition: object,
    private readonly handlers: TaskHandlers,
    /** An execution that failed (as Step Functions reports FAILED); `input` is the execution's input. */
    private readonly onError: (name: string, error: unknown, input: { verificationId: string; run: number }) => unknown = () => {},
    /** Retry pauses per state in ms (scaled down locally). */
    private readonly retryIntervals: Record<string, number> = Object.fromEntries(Object.keys(handlers).map((k) => [k, 50])),
  ) {}

  /** Milliseconds spent in each Task state, per state name (the benchmark's breakdown). */
  readonly taskTimes: Record<string, number[]> = {};
  private paused: RunExecution[] | undefined;

  /** Holds new executions until resume() (the benchmark counts an operation's own requests). */
  pause(): void {
    this.paused ??= [];
  }

  async resume(): Promise<void> {
    const held = this.paused ?? [];
    this.paused = undefined;
    for (const input of held) await this.start(input);
  }

  private timed(): TaskHandlers {
    return Object.fromEntries(
      Object.entries(this.handlers).map(([state, handler]) => [
        state,
        async (input: Parameters<typeof handler>[0]) => {
          const started = performance.now();
          try {
            return await handler(input);
          } finally {
            (this.taskTimes[state] ??= []).push(performance.now() - started);
          }
        },
      ]),
    );
  }

  private validated: StateMachine | undefined;

  /**
   * The state machine, validated once: asl-validator compiles its JSON schema on every validation,
   * 141 ms of CPU measured here, which each Submit paid when the machine was built per execution.
   * Every run is still an execution of its own.
   */
  private machine(): StateMachine {
    return (this.validated ??= new StateMachine(this.definition as StateMachineDefinition, { validationOptions: { checkArn: false, checkPaths: true } }));
  }

  async start(input: RunExecution): Promise<void> {
    const name = executionName(input.verificationId, input.run, input.attempt);
    if (this.started.has(name)) return; // like ExecutionAlreadyExists
    if (this.paused) {
      this.paused.push(input);
      return;
    }
    this.started.add(name);
    this.live.add(name);
    const runInput = { verificationId: input.verificationId, run: input.run };
    const execution = this.machine().run(runInput, {
      overrides: { taskResourceLocalHandlers: this.timed(), retryIntervalOverrides: this.retryIntervals, waitTimeOverrides: {} },
    });
    const done = execution.result
      .catch(async (error: unknown) => {
        this.failures.push({ name, error: (error as Error).name });
        await Promise.resolve(this.onError(name, error, runInput)).catch(() => {});
      })
      .finally(() => this.live.delete(name));
    this.running.add(done);
    void done.finally(() => this.running.delete(done));
  }

  /** What this process knows: after a restart every earlier execution is absent (it died with the process). */
  async state(input: RunExecution): Promise<ExecutionState> {
    const name = executionName(input.verificationId, input.run, input.attempt);
    if (this.live.has(name)) return 'running';
    if (this.started.has(name)) return 'ended';
    return this.paused?.some((p) => executionName(p.verificationId, p.run, p.attempt) === name) ? 'running' : 'absent';
  }

  get busy(): boolean {
    return this.running.size > 0;
  }

  /** Resolves when every started execution has finished (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
