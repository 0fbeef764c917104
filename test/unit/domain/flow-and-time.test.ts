import { countryByIso3, isIso3 } from '../../../src/domain/countries';
import { describeFlow, isCountryAllowed, isDoubleSided, resolveFlows } from '../../../src/domain/flow';
import { formatTimestamp, isCalendarDate } from '../../../src/domain/time';
import flowsFile from '../../../config/flows.json';

describe('flow configuration', () => {
  it('resolves the checked-in file with the seeded names and contexts', () => {
    const flows = resolveFlows(flowsFile);
    expect(flows.map((f) => [f.path, f.name, f.required_contexts])).toEqual([
      ['default', 'Default', ['PHOTO_ID', 'PROOF_OF_ADDRESS']],
      ['photo-id', 'Photo ID', ['PHOTO_ID']],
      ['id-and-live-selfie', 'Photo ID and live selfie', ['PHOTO_ID', 'SELFIE']],
      ['kyc-screened', 'Photo ID with sanctions screening', ['PHOTO_ID']],
    ]);
    expect(flows.find((f) => f.path === 'id-and-live-selfie')?.checks?.liveness).toBe('required');
  });

  it('refuses inconsistent files', () => {
    const base = structuredClone(flowsFile);
    expect(() => resolveFlows({ ...base, document_types: [...base.document_types, base.document_types[0]] })).toThrow(/duplicate document type id/);
    expect(() => resolveFlows({ ...base, flows: [{ ...base.flows[0], document_types: [42] }] })).toThrow(/unknown document type 42/);
    expect(() => resolveFlows({ ...base, flows: [{ ...base.flows[0], document_types: [1] }] })).toThrow(/requires PROOF_OF_ADDRESS/);
    expect(() => resolveFlows({ ...base, document_types: [{ ...base.document_types[0], forbidden_countries: ['XX'] }] })).toThrow();
  });

  it('applies per-country sides and forbidden countries', () => {
    const type = { id: 9, name: 'T', context_type: 'PHOTO_ID' as const, sides: 2 as const, sides_by_country: { FRA: 1 as const }, allowed_countries: null, forbidden_countries: ['USA'] };
    expect(isDoubleSided(type, 'DEU')).toBe(true);
    expect(isDoubleSided(type, 'FRA')).toBe(false);
    expect(isCountryAllowed(type, 'USA')).toBe(false);
    expect(isCountryAllowed({ ...type, allowed_countries: ['FRA'] }, 'DEU')).toBe(false);
  });

  it('describes a flow with explicit country lists', () => {
    const [flow] = resolveFlows(flowsFile);
    const passport = describeFlow(flow!).document_types[0]!;
    expect(passport).toMatchObject({ id: 1, name: 'Passport', type_label: 'Photo ID', double_sided_countries: [], forbidden_countries: [] });
    expect(passport.allowed_countries.length).toBeGreaterThan(240);
  });
});

describe('countries and time', () => {
  it('knows ISO 3166 alpha-3 codes from the maintained package', () => {
    expect(isIso3('FRA')).toBe(true);
    expect(isIso3('fra')).toBe(false);
    expect(isIso3('XXX')).toBe(false);
    expect(countryByIso3('DEU')).toEqual({ name: 'Germany', iso2: 'DE', iso3: 'DEU' });
  });

  it('formats timestamps with microseconds', () => {
    expect(formatTimestamp(Date.UTC(2026, 0, 2, 3, 4, 5, 678) * 1000 + 912)).toBe('2026-01-02T03:04:05.678912Z');
    expect(formatTimestamp(0)).toBe('1970-01-01T00:00:00.000000Z');
  });

  it('accepts only real calendar dates', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2023-2-1')).toBe(false);
  });
});
