import type { RunItem } from '../../src/app/workflow/run';
import { extractDocument } from '../../src/app/workflow/extract-document';
import { workflowTask } from '../../src/workflow/handler';
import { ENTRY_PORTS } from '../../src/entries';

export const handler = workflowTask('ExtractDocument', ENTRY_PORTS['workflow/extract-document'], (deps, item: RunItem) => extractDocument(deps, item));
