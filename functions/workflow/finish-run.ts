import { finishRun } from '../../src/app/workflow/finish-run';
import { workflowTask } from '../../src/workflow/handler';
import { ENTRY_PORTS } from '../../src/entries';

export const handler = workflowTask('FinishRun', ENTRY_PORTS['workflow/finish-run'], finishRun);
