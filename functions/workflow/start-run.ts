import { startRun } from '../../src/app/workflow/start-run';
import { workflowTask } from '../../src/workflow/handler';
import { ENTRY_PORTS } from '../../src/entries';

export const handler = workflowTask('StartRun', ENTRY_PORTS['workflow/start-run'], startRun);
