import { extractorFor } from '../../../src/app/workflow/extraction';
import type { Flow } from '../../../src/domain/flow';
import type { Extractor } from '../../../src/ports/extractor';

const named = (name: string): Extractor => ({ name, extract: async () => { throw new Error('not called'); } });
const flow = (extractor?: 'aws' | 'offline'): Flow => ({ path: 'f', name: 'F', required_contexts: [], document_types: [], expire_after_days: 7, ...(extractor && { extractor }) });

describe('the extractor of a flow', () => {
  const deps = { extractor: named('aws'), extractors: { aws: named('aws'), offline: named('offline') } };

  it('is the one the flow names when the deployment offers it', () => {
    expect(extractorFor(deps, flow('offline')).name).toBe('offline');
  });

  it("is the deployment's when the flow names none, or one this function does not carry", () => {
    expect(extractorFor(deps, flow()).name).toBe('aws');
    expect(extractorFor({ extractor: named('aws'), extractors: {} }, flow('offline')).name).toBe('aws');
  });

  it('is always the sandbox in test mode', () => {
    expect(extractorFor({ extractor: named('sandbox'), extractors: { offline: named('offline') } }, flow('offline')).name).toBe('sandbox');
  });
});
