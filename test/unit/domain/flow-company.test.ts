import { resolveFlows } from '../../../src/domain/flow';

const file = (widget: unknown) => ({
  document_types: [{ id: 1, name: 'Passport', context_type: 'PHOTO_ID', sides: 1 }],
  flows: [{ path: 'default', name: 'Default', required_contexts: ['PHOTO_ID'], document_types: [1], widget }],
});

describe('a flow\'s company name and privacy notice (config/flows.json "widget")', () => {
  it('takes the deploying company\'s name and its privacy notice\'s https link', () => {
    const [flow] = resolveFlows(file({ company_name: 'Example Company', privacy_url: 'https://example.com/privacy' }));
    expect(flow?.widget).toEqual({ company_name: 'Example Company', privacy_url: 'https://example.com/privacy' });
  });

  it('refuses an empty name and a privacy link that is not https', () => {
    expect(() => resolveFlows(file({ company_name: '' }))).toThrow();
    expect(() => resolveFlows(file({ privacy_url: 'http://example.com/privacy' }))).toThrow('an https URL');
  });
});
