/**
 * The binding of the state machine's Task states to handler files, defined once: the CDK stack
 * builds one Lambda per entry and substitutes its ARN for `${<substitution>}`; the local runtime
 * binds the state name to the same handler module.
 */
export const WORKFLOW_TASKS = [
  { state: 'StartRun', substitution: 'StartRunFunctionArn', handler: 'workflow/start-run' },
  { state: 'ExtractDocument', substitution: 'ExtractDocumentFunctionArn', handler: 'workflow/extract-document' },
  { state: 'EvaluateDocument', substitution: 'EvaluateDocumentFunctionArn', handler: 'workflow/evaluate-document' },
  { state: 'FinishRun', substitution: 'FinishRunFunctionArn', handler: 'workflow/finish-run' },
  { state: 'FailRun', substitution: 'FailRunFunctionArn', handler: 'workflow/fail-run' },
] as const;

/** The state machine's execution timeout (`TimeoutSeconds` of the ASL file); a timed-out execution is failed by the status-change rule. */
export const RUN_TIMEOUT_SECONDS = 3600;

/**
 * Error names the Lambda service itself raises for a task (AWS "Handling errors in Step Functions"),
 * as opposed to the names our code throws (domain errors, see test/unit/local/asl-errors.test.ts).
 */
export const LAMBDA_SERVICE_ERRORS = ['Lambda.ServiceException', 'Lambda.AWSLambdaException', 'Lambda.SdkClientException', 'Lambda.TooManyRequestsException', 'Lambda.ClientExecutionTimeoutException'] as const;

/** The statuses of "Step Functions Execution Status Change" that end an execution without its own fail-safe having run (a timeout or an abort cannot be caught; FailRun can use up its retries). */
export const UNFINISHED_EXECUTION_STATUSES = ['FAILED', 'TIMED_OUT', 'ABORTED'] as const;
