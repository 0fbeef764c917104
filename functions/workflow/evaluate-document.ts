import type { RunItem } from '../../src/app/workflow/run';
import { evaluateDocument } from '../../src/app/workflow/evaluate-document';
import { workflowTask } from '../../src/workflow/handler';
import { ENTRY_PORTS } from '../../src/entries';

export const handler = workflowTask('EvaluateDocument', ENTRY_PORTS['workflow/evaluate-document'], (deps, item: RunItem) => evaluateDocument(deps, item));
