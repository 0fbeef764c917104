/** One execution of the pipeline: a run of a verification, and which attempt at that run (0: the first). */
export interface RunExecution {
  verificationId: string;
  run: number;
  attempt?: number;
}

/** What the workflow engine knows of an execution: still going, over (whatever the outcome), or never started. */
export type ExecutionState = 'running' | 'ended' | 'absent';

/**
 * Starts the extraction and validation pipeline for one run of a verification.
 * Starting the same (verificationId, run, attempt) twice must be harmless: executions have
 * deterministic names, a repeated start is a success.
 */
export interface WorkflowStarter {
  start(input: RunExecution): Promise<void>;
  /** The state of the execution named by (verificationId, run, attempt); the run sweeper asks before acting. */
  state(input: RunExecution): Promise<ExecutionState>;
}
