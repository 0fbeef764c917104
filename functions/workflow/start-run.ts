import { startRun } from '../../src/app/workflow/start-run';
import { workflowTask } from '../../src/workflow/handler';

export const handler = workflowTask('StartRun', ['verifications', 'documents', 'clock'], startRun);
