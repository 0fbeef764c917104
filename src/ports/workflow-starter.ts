/**
 * Starts the extraction and validation pipeline for one run of a verification.
 * Starting the same (verificationId, run) twice must be harmless.
 */
export interface WorkflowStarter {
  start(input: { verificationId: string; run: number }): Promise<void>;
}
