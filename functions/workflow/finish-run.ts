import { finishRun } from '../../src/app/workflow/finish-run';
import { workflowTask } from '../../src/workflow/handler';

export const handler = workflowTask('FinishRun', ['verifications', 'flows', 'clock', 'ids', 'events', 'outbox'], finishRun);
