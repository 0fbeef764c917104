import { emptyExpectedData } from '../../../src/domain/expected-data';
import { normaliseSearch, SEARCH_MAX, searchTerms } from '../../../src/domain/search';

describe('search terms', () => {
  it('compares without case, accents or extra spaces', () => {
    expect(normaliseSearch('  Zoë   ÅNGSTRÖM\t')).toBe('zoe angstrom');
    expect(normaliseSearch('CRM-0042')).toBe('crm-0042');
    expect(normaliseSearch('a\u0000b')).toBe('a b');
  });

  it('indexes the id, the reference and the name in both orders', () => {
    const expectedData = emptyExpectedData();
    expectedData.person.first_name = 'Ada';
    expectedData.person.last_name = 'Lovelace';
    expect(searchTerms({ id: 'ver_01ABC', vendorReference: 'Ref-1', expectedData })).toEqual({
      id: 'ver_01abc',
      ref: 'ref-1',
      name: 'ada lovelace',
      nameReversed: 'lovelace ada',
    });
  });

  it('has no reference or name term when there is none', () => {
    expect(searchTerms({ id: 'ver_1', vendorReference: null, expectedData: emptyExpectedData() })).toEqual({ id: 'ver_1', ref: undefined, name: undefined, nameReversed: undefined });
  });

  it('keeps a term to SEARCH_MAX code points, never half a surrogate pair, so its index key stays within 1,024 bytes', () => {
    const expectedData = emptyExpectedData();
    expectedData.person.first_name = '€'.repeat(255);
    expectedData.person.last_name = '😀'.repeat(127);
    const terms = searchTerms({ id: 'ver_1', vendorReference: '😀'.repeat(127), expectedData });
    for (const term of [terms.name, terms.nameReversed, terms.ref]) {
      expect(Array.from(term ?? '')).toHaveLength(SEARCH_MAX);
      expect(term).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      expect(Buffer.byteLength(term ?? '', 'utf8')).toBeLessThanOrEqual(400);
    }
    expect(terms.nameReversed?.startsWith('😀')).toBe(true);
  });
});

