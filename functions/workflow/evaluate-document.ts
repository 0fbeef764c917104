import type { RunItem } from '../../src/app/workflow/run';
import { evaluateDocument } from '../../src/app/workflow/evaluate-document';
import { workflowTask } from '../../src/workflow/handler';

export const handler = workflowTask('EvaluateDocument', ['verifications', 'documents', 'flows', 'clock', 'ids', 'ruleThresholds'], (deps, item: RunItem) => evaluateDocument(deps, item));
