import { AAMVA_VARIANTS, aamvaDocument, implausibleDates } from '../../../scripts/bench/aamva';
import type { Extraction } from '../../../src/ports/extractor';
import { emptyExtractedData } from '../../../src/domain/rules';

/** Documents of every version, US and Canadian (aamvaDocument takes versions in turn, then the other country). */
const docs = Array.from({ length: 2 * AAMVA_VARIANTS.length }, (_, i) => aamvaDocument(40 + i, i));

describe('AAMVA bench texts, laid out as the standard describes', () => {
  it('writes the header and subfile designators whose offsets and lengths point at each subfile', () => {
    for (const d of docs) {
      const version = Number(d.variant.slice(0, 2));
      const header = new RegExp(`^@\\n\\x1e\\r(ANSI |AAMVA)${d.jurisdiction.iin}${d.variant.slice(0, 2)}${version >= 2 ? '\\d\\d' : ''}02`).exec(d.text);
      expect(header?.[1]).toBe(d.variant === '01-AAMVA' ? 'AAMVA' : 'ANSI ');
      const designators = d.text.slice((header as RegExpExecArray)[0].length, (header as RegExpExecArray)[0].length + 20);
      for (const [, type, offset, length] of designators.matchAll(/([A-Z]{2})(\d{4})(\d{4})/g)) {
        const subfile = d.text.slice(Number(offset), Number(offset) + Number(length));
        expect(subfile.startsWith(type as string)).toBe(true);
        expect(subfile.endsWith('\r')).toBe(true);
      }
    }
  });

  it('writes names and dates as each version prescribes, for both countries', () => {
    for (const d of docs) {
      const version = Number(d.variant.slice(0, 2));
      const p = d.person;
      const [y, m, day] = p.dateOfBirth.split('-');
      const dob = version === 1 || d.jurisdiction.country === 'CAN' ? `${y}${m}${day}` : `${m}${day}${y}`;
      expect(d.text).toContain(`\nDBB${dob}\n`);
      expect(d.text.includes('\nDAA')).toBe(version === 1);
      expect(d.text.includes('\nDCT')).toBe(version === 2 || version === 3);
      expect(d.text.includes('\nDDE')).toBe(version >= 4);
      expect(d.text.includes('\nDCG')).toBe(version >= 4);
    }
    expect(docs.map((d) => d.jurisdiction.country)).toEqual(expect.arrayContaining(['USA', 'CAN']));
  });

  it('writes a family name longer than 40 characters cut to 40 and flagged DDE T', () => {
    const d = aamvaDocument(7, 0, true);
    expect(d.person.surname.length).toBeGreaterThan(40);
    expect(d.text).toContain(`DCS${d.person.surname.slice(0, 40)}\nDDET`);
  });

  it('counts dates as implausible when impossible, outside 1900–2100 or birth not before expiry', () => {
    const withDates = (birth: string, expiry: string): Extraction => {
      const data = emptyExtractedData();
      data.person.date_of_birth = birth;
      data.document.expiration_date = expiry;
      return { data, confidence: {} };
    };
    expect(implausibleDates(withDates('1980-02-29', '2030-01-01'))).toBe(false);
    expect(implausibleDates(withDates('', ''))).toBe(false);
    expect(implausibleDates(withDates('1981-02-29', '2030-01-01'))).toBe(true);
    expect(implausibleDates(withDates('1880-01-01', '2030-01-01'))).toBe(true);
    expect(implausibleDates(withDates('2031-01-01', '2030-01-01'))).toBe(true);
  });
});
