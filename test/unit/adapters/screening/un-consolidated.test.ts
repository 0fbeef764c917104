import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SnapshotFormatError } from '../../../../src/adapters/screening/errors';
import { parseUnConsolidated } from '../../../../src/adapters/screening/un-consolidated';

const SHARED = join(__dirname, '..', '..', '..', '..', '..', 'shared', 'sanctions', 'un-consolidated.xml');
const OWN = join(__dirname, '..', '..', '..', '..', 'config', 'screening', 'un-consolidated.xml');

describe('UN Security Council consolidated list XML', () => {
  describe('the real snapshot in ../shared/sanctions (read in place)', () => {
    const snapshot = parseUnConsolidated(readFileSync(SHARED, 'utf8'));
    const persons = snapshot.entries.filter((e) => e.kind === 'person');
    const byRef = new Map(snapshot.entries.map((e) => [e.reference, e]));

    it('counts the 682 individuals and 193 entities of the README table, dated by dateGenerated', () => {
      expect(persons).toHaveLength(682);
      expect(snapshot.entries.filter((e) => e.kind === 'entity')).toHaveLength(193);
      expect(snapshot.asOf).toBe('2024-09-26');
    });

    it('reads names, the original script, aliases by quality, approximate dates and nationality', () => {
      const e = byRef.get('TAi.007');
      expect(e?.id).toBe('110554');
      expect(e?.names.map((n) => [n.full, n.kind, n.quality])).toEqual([
        ['ABDUL LATIF MANSUR', 'primary', 'strong'],
        ['عبد اللطيف منصور', 'original_script', 'strong'],
        ['Abdul Latif Mansoor', 'aka', 'strong'],
        ['Wali Mohammad', 'aka', 'strong'],
      ]);
      expect(e?.datesOfBirth).toEqual([{ year: 1968, approximate: true }]);
      expect(e?.nationalities).toEqual(['AF']);
      expect(e?.programmes).toEqual(['Taliban']);
    });

    it('reads BETWEEN ranges, Low-quality aliases as weak, documents and gender where the list has them', () => {
      expect(persons.filter((e) => e.datesOfBirth.some((d) => 'fromYear' in d)).length).toBeGreaterThanOrEqual(20);
      expect(persons.flatMap((e) => e.names).filter((n) => n.quality === 'weak')).toHaveLength(626);
      expect(persons.filter((e) => e.names.some((n) => n.kind === 'original_script')).length).toBeGreaterThan(300);
      expect(persons.filter((e) => e.documents.some((d) => d.type === 'passport')).length).toBeGreaterThan(100);
      expect(persons.filter((e) => e.gender).length).toBe(55);
    });
  });

  describe("the repository's own fictional list", () => {
    const snapshot = parseUnConsolidated(readFileSync(OWN, 'utf8'));

    it('reads Cyrillic and Arabic original-script names, a BETWEEN date, a Low alias, a passport and an entity', () => {
      const [zakhar, khalil, society] = snapshot.entries;
      expect(snapshot.asOf).toBe('2026-11-20');
      expect(zakhar?.names.map((n) => [n.full, n.kind, n.quality])).toEqual([
        ['ZAKHAR MIRONOVICH PUSTOVALOV', 'primary', 'strong'],
        ['Захар Миронович Пустовалов', 'original_script', 'strong'],
        ['Zakhar Pustovalov', 'aka', 'strong'],
        ['The Tinsmith', 'aka', 'weak'],
      ]);
      expect(zakhar).toMatchObject({ gender: 'male', nationalities: ['RU'], datesOfBirth: [{ exact: '1966-07-30' }], documents: [{ type: 'passport', number: '00 0000042', country: 'RU' }] });
      expect(khalil?.datesOfBirth).toEqual([{ fromYear: 1975, toYear: 1978 }]);
      expect(khalil?.nationalities).toEqual(['SY']);
      expect(society).toMatchObject({ kind: 'entity', reference: 'TSe.001' });
      expect(society?.names.map((n) => n.full)).toEqual(['PAPERLANTERN RELIEF SOCIETY', 'Paperlantern Society']);
    });
  });

  describe('refuses what is not the UN list, without expanding anything', () => {
    it.each([
      ['an entity-expansion bomb', `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><CONSOLIDATED_LIST dateGenerated="2024-01-01">&b;</CONSOLIDATED_LIST>`, /DOCTYPE/],
      ['broken XML', `<CONSOLIDATED_LIST dateGenerated="2024-01-01"><INDIVIDUALS><INDIVIDUAL></INDIVIDUALS>`, /well-formed/],
      ['another root', `<?xml version="1.0"?><sanctionsList/>`, /CONSOLIDATED_LIST/],
      ['no list date', `<CONSOLIDATED_LIST><INDIVIDUALS/></CONSOLIDATED_LIST>`, /dateGenerated/],
      ['an individual without DATAID', `<CONSOLIDATED_LIST dateGenerated="2024-01-01"><INDIVIDUALS><INDIVIDUAL><FIRST_NAME>A</FIRST_NAME></INDIVIDUAL></INDIVIDUALS></CONSOLIDATED_LIST>`, /DATAID/],
    ])('%s', (_, xml, message) => {
      expect(() => parseUnConsolidated(xml)).toThrow(SnapshotFormatError);
      expect(() => parseUnConsolidated(xml)).toThrow(message);
    });
  });
});
