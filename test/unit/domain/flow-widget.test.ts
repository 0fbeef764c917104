import { contrastRatio, resolveFlows } from '../../../src/domain/flow';
import flowsFile from '../../../config/flows.json';

const withWidget = (widget: unknown) => {
  const base = structuredClone(flowsFile);
  return { ...base, flows: [{ ...base.flows[0]!, widget }] };
};

describe('a flow\'s page settings (config/flows.json "widget")', () => {
  it('reads the checked-in example: texts by language, brand colour, return link', () => {
    const photoId = resolveFlows(flowsFile).find((f) => f.path === 'photo-id');
    expect(photoId?.widget?.intro?.de).toMatch(/^Die Example Bank/);
    expect(photoId?.widget).toMatchObject({ primary_color: '#0f6e5a', return_url: 'https://example.com/account' });
    expect(resolveFlows(flowsFile).find((f) => f.path === 'default')?.widget).toEqual({ company_name: 'Example Company', privacy_url: 'https://example.com/privacy' });
  });

  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('refuses a brand colour under which white text would not reach 4.5:1', () => {
    expect(() => resolveFlows(withWidget({ primary_color: '#f2a900' }))).toThrow(/4\.5:1/);
    expect(() => resolveFlows(withWidget({ primary_color: '#777777' }))).toThrow(/4\.5:1/);
    expect(() => resolveFlows(withWidget({ primary_color: 'blue' }))).toThrow(/#rrggbb/);
    expect(resolveFlows(withWidget({ primary_color: '#767676' }))[0]?.widget?.primary_color).toBe('#767676');
  });

  it('wants English in every text, known languages only, https links, and nothing else', () => {
    expect(() => resolveFlows(withWidget({ intro: { es: 'Hola' } }))).toThrow(/English/);
    expect(() => resolveFlows(withWidget({ intro: { en: 'Hi', it: 'Ciao' } }))).toThrow();
    expect(() => resolveFlows(withWidget({ return_url: 'http://example.com' }))).toThrow(/https/);
    expect(() => resolveFlows(withWidget({ return_url: 'javascript:alert(1)' }))).toThrow();
    expect(() => resolveFlows(withWidget({ logo_url: 'https://cdn.example/logo.svg', colour: '#000000' }))).toThrow();
  });
});
