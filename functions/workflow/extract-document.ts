import type { RunItem } from '../../src/app/workflow/run';
import { extractDocument } from '../../src/app/workflow/extract-document';
import { workflowTask } from '../../src/workflow/handler';

export const handler = workflowTask('ExtractDocument', ['verifications', 'documents', 'flows', 'clock', 'extractor', 'extractors', 'extractionCache'], (deps, item: RunItem) => extractDocument(deps, item));
