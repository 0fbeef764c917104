import { failRun } from '../../src/app/workflow/finish-run';
import { workflowTask } from '../../src/workflow/handler';

export const handler = workflowTask('FailRun', ['verifications', 'flows', 'clock', 'ids', 'events', 'outbox'], failRun);
