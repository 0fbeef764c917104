import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from '../../../../src/adapters/screening/csv';
import { SnapshotFormatError } from '../../../../src/adapters/screening/errors';
import { ofacDate, parseOfacSdn } from '../../../../src/adapters/screening/ofac-sdn';

const SHARED = join(__dirname, '..', '..', '..', '..', '..', 'shared', 'sanctions', 'ofac-sdn.csv');
const OWN = join(__dirname, '..', '..', '..', '..', 'config', 'screening', 'ofac-sdn.csv');

describe('OFAC SDN legacy CSV', () => {
  describe('the real snapshot in ../shared/sanctions (read in place)', () => {
    const snapshot = parseOfacSdn({ sdn: readFileSync(SHARED, 'utf8') }, '2024-05-03');
    const byId = new Map(snapshot.entries.map((e) => [e.id, e]));

    it('reads every row and the 6,854 individuals of the README table', () => {
      expect(snapshot.entries).toHaveLength(14965);
      expect(snapshot.entries.filter((e) => e.kind === 'person')).toHaveLength(6854);
      expect(snapshot.entries.filter((e) => e.kind === 'vessel').length).toBeGreaterThan(0);
      expect(snapshot.entries.filter((e) => e.kind === 'aircraft').length).toBeGreaterThan(0);
      expect(snapshot.asOf).toBe('2024-05-03');
    });

    it('splits "LAST, First" and reads date of birth, nationality, passport and a.k.a. names from Remarks', () => {
      const e = byId.get('10898');
      expect(e?.names[0]).toEqual({ full: 'MOHAMMADHASNI, Haji Asad Khan Zarkari', kind: 'primary', quality: 'strong', parts: { family: ['MOHAMMADHASNI'], given: ['Haji Asad Khan Zarkari'] } });
      expect(e?.names.slice(1).map((n) => [n.full, n.kind, n.quality])).toEqual([
        ['ASAD, Haji', 'aka', 'strong'],
        ['HAJI ABDULLAH', 'aka', 'strong'],
      ]);
      expect(e?.datesOfBirth).toEqual([{ exact: '1955-01-01' }]);
      expect(e?.nationalities).toEqual(['AF']);
      expect(e?.documents).toEqual([{ type: 'passport', number: 'OR1126692', country: 'AF' }]);
      expect(e?.programmes).toEqual(['SDNTK']);
    });

    it('reads year, circa and "to" ranges, gender, several programmes and Korea, North', () => {
      expect(byId.get('16455')?.datesOfBirth).toEqual([{ year: 1964 }, { fromYear: 1963, toYear: 1965 }]);
      expect(byId.get('16455')?.nationalities).toEqual(['AF']);
      expect(byId.get('21328')?.programmes).toEqual(['CYBER2', 'CAATSA - RUSSIA']);
      expect(byId.get('21328')?.gender).toBe('male');
      expect(byId.get('21328')?.documents.map((d) => d.number)).toEqual(['100119726', '100115101']);
      expect(byId.get('17614')?.nationalities).toEqual(['KP']);
    });

    it('gives most individuals a date of birth and a country, as the list does', () => {
      const persons = snapshot.entries.filter((e) => e.kind === 'person');
      expect(persons.filter((e) => e.datesOfBirth.length > 0).length).toBeGreaterThan(6500);
      expect(persons.filter((e) => e.nationalities.length > 0).length).toBeGreaterThan(4900);
      expect(persons.filter((e) => e.documents.some((d) => d.type === 'passport')).length).toBeGreaterThan(1000);
    });
  });

  describe("the repository's own fictional list", () => {
    const snapshot = parseOfacSdn({ sdn: readFileSync(OWN, 'utf8') }, '2026-11-20');
    const byId = new Map(snapshot.entries.map((e) => [e.id, e]));

    it('reads individuals, entities and vessels, weak and f.k.a. names, and the trailing end-of-file byte', () => {
      expect(snapshot.entries.map((e) => e.kind)).toEqual(['person', 'person', 'entity', 'vessel', 'person']);
      expect(byId.get('9000001')?.names.map((n) => [n.full, n.kind, n.quality])).toEqual([
        ['QUILLFEATHER, Ostrava Melisande', 'primary', 'strong'],
        ['QUILLFEATHER, Ostra', 'aka', 'strong'],
        ['THE HERON', 'aka', 'weak'],
      ]);
      expect(byId.get('9000001')?.documents).toEqual([{ type: 'passport', number: 'ZT4417102', country: 'GB' }]);
      expect(byId.get('9000001')?.gender).toBe('female');
      expect(byId.get('9000002')?.datesOfBirth).toEqual([{ year: 1958, approximate: true }, { fromYear: 1957, toYear: 1959 }]);
      expect(byId.get('9000002')?.programmes).toEqual(['TEST-PROGRAM', 'TEST-SECOND']);
      expect(byId.get('9000005')?.names[1]).toMatchObject({ full: 'TAMARIND, Yusuf', kind: 'fka' });
    });

    it('takes alt.csv aliases when the file is there, weak ones marked', () => {
      const alt = '9000002,101,"aka","TOLLEVIK, Hal","weak"\n9000002,102,"fka","BRASK, Haldor",-0- \n';
      const withAlt = parseOfacSdn({ sdn: readFileSync(OWN, 'utf8'), alt, add: '9000002,1,-0- ,"Oslo",-0- ,"Norway",-0- \n'.replace(',-0- \n', '\n') }, '2026-11-20');
      const names = withAlt.entries.find((e) => e.id === '9000002')?.names;
      expect(names?.slice(1).map((n) => [n.full, n.kind, n.quality])).toEqual([
        ['TOLLEVIK, Hal', 'aka', 'weak'],
        ['BRASK, Haldor', 'fka', 'strong'],
      ]);
    });
  });

  describe('refuses what is not an OFAC file, without hanging', () => {
    it.each([
      ['a header row', 'ent_num,SDN_Name\n1,"X"\n', /2 columns/],
      ['a row of 11 columns', '1,"A, B","individual",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \n', /11 columns/],
      ['an ent_num that is not a number', 'x1,"A, B","individual",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \n', /ent_num/],
      ['an unclosed quote', '1,"A, B,individual,-0- \n', /not closed/],
      ['too many fields', `${'a,'.repeat(100)}a\n`, /more than 12 fields/],
    ])('%s', (_, text, message) => {
      expect(() => parseOfacSdn({ sdn: text }, '2026-01-01')).toThrow(SnapshotFormatError);
      expect(() => parseOfacSdn({ sdn: text }, '2026-01-01')).toThrow(message);
    });

    it('refuses a field beyond the size limit at once', () => {
      const started = Date.now();
      expect(() => parseCsv(`"${'x'.repeat(200_000)}"`, 'big.csv', { maxChars: 1e7, maxRows: 10, maxFields: 5, maxFieldChars: 1000 })).toThrow(/longer than 1000/);
      expect(Date.now() - started).toBeLessThan(2000);
    });
  });

  it('reads the forms of dates OFAC prints', () => {
    expect(ofacDate('10 Dec 1948')).toEqual({ exact: '1948-12-10' });
    expect(ofacDate('Dec 1948')).toEqual({ month: '1948-12' });
    expect(ofacDate('1948')).toEqual({ year: 1948 });
    expect(ofacDate('circa 1948')).toEqual({ year: 1948, approximate: true });
    expect(ofacDate('01 Jan 1983 to 31 Dec 1985')).toEqual({ fromYear: 1983, toYear: 1985 });
    expect(ofacDate('sometime')).toBeUndefined();
  });
});
