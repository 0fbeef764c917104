import { failRun } from '../../src/app/workflow/finish-run';
import { workflowTask } from '../../src/workflow/handler';
import { ENTRY_PORTS } from '../../src/entries';

export const handler = workflowTask('FailRun', ENTRY_PORTS['workflow/fail-run'], failRun);
