import { ScreeningIndex } from '../../../../src/domain/screening/matcher';
import type { ListEntry, ScreenedPerson, ScreeningHit } from '../../../../src/domain/screening/types';

/** Fictional entries, one per class of evidence. */
function person(id: string, names: ListEntry['names'], more: Partial<ListEntry> = {}): ListEntry {
  return { list: 'test', id, reference: id, kind: 'person', names, datesOfBirth: [], placesOfBirth: [], nationalities: [], documents: [], programmes: ['TEST'], ...more };
}
const primary = (full: string, family?: string, given?: string): ListEntry['names'][number] =>
  family ? { full, kind: 'primary', quality: 'strong', parts: { family: [family], ...(given ? { given: [given] } : {}) } } : { full, kind: 'primary', quality: 'strong' };

const ENTRIES: ListEntry[] = [
  person('1', [primary('QUILLFEATHER, Ostrava Melisande', 'QUILLFEATHER', 'Ostrava Melisande'), { full: 'THE HERON', kind: 'aka', quality: 'weak' }], {
    datesOfBirth: [{ exact: '1971-03-14' }],
    nationalities: ['GB'],
    gender: 'female',
    documents: [{ type: 'passport', number: 'ZT4417102', country: 'GB' }],
  }),
  person('2', [primary('ZAKHAR MIRONOVICH PUSTOVALOV'), { full: 'Захар Миронович Пустовалов', kind: 'original_script', quality: 'strong' }], {
    datesOfBirth: [{ fromYear: 1964, toYear: 1967 }],
    nationalities: ['RU'],
    gender: 'male',
  }),
  person('3', [primary('KHALIL NAJMUDDIN QARAWASH'), { full: 'خليل نجم الدين قراوش', kind: 'original_script', quality: 'strong' }], { datesOfBirth: [{ year: 1976, approximate: true }] }),
  person('4', [primary('BRASK-TOLLEVIK, Haldor Einar', 'BRASK-TOLLEVIK', 'Haldor Einar')]),
  { ...person('5', [primary('PAPERLANTERN RELIEF SOCIETY')]), kind: 'entity' },
  { ...person('6', [primary('GLIMMERING OTTER')]), kind: 'vessel' },
];
const index = ScreeningIndex.build(ENTRIES);

function hit(p: ScreenedPerson, entry: string): ScreeningHit | undefined {
  return index.screen(p).hits.find((h) => h.entry === entry);
}
const score = (p: ScreenedPerson, entry: string) => hit(p, entry)?.score ?? 0;

describe('screening: scoring classes', () => {
  it('scores the listed name 1 and explains which parts matched', () => {
    const h = hit({ fullName: 'Ostrava Melisande Quillfeather' }, '1');
    expect(h?.score).toBe(1);
    expect(h?.reasons[0]).toMatch(/quillfeather \(family\) exact/);
  });

  it('matches the parts in any order, and first/last name fields', () => {
    expect(score({ fullName: 'Quillfeather Ostrava Melisande' }, '1')).toBe(1);
    expect(score({ firstName: 'Ostrava', middleName: 'Melisande', lastName: 'Quillfeather' }, '1')).toBe(1);
    expect(score({ fullName: 'Pustovalov Zakhar Mironovich' }, '2')).toBe(1);
  });

  it('matches across scripts: Cyrillic and Arabic queries, and the listed original script', () => {
    expect(score({ fullName: 'Захар Пустовалов' }, '2')).toBeGreaterThanOrEqual(0.85);
    expect(score({ fullName: 'خليل نجم الدين قراوش' }, '3')).toBe(1);
    // An unvowelled Arabic spelling against the Latin name, through consonant skeletons.
    expect(score({ fullName: 'خليل قراوش' }, '3')).toBeGreaterThanOrEqual(0.85);
  });

  it('tolerates typos within an edit budget that grows with the length, and not beyond', () => {
    expect(score({ fullName: 'Ostrava Quilfeather' }, '1')).toBeGreaterThanOrEqual(0.85);
    expect(score({ fullName: 'Ostrava Quillfaether' }, '1')).toBeGreaterThanOrEqual(0.85);
    expect(score({ fullName: 'Ostrava Qillfaether' }, '1')).toBeGreaterThanOrEqual(0.85);
    expect(score({ fullName: 'Ostrava Qxxlfexthxr' }, '1')).toBeLessThan(0.85);
  });

  it('matches initials and missing middle names, but an initial and a family name alone stay weak', () => {
    expect(score({ fullName: 'Ostrava M. Quillfeather' }, '1')).toBeGreaterThanOrEqual(0.85);
    expect(score({ fullName: 'Ostrava Quillfeather' }, '1')).toBeGreaterThanOrEqual(0.85);
    expect(score({ fullName: 'O. Quillfeather' }, '1')).toBeLessThan(0.85);
  });

  it('weighs the family name: a wrong family name costs more than a wrong given name', () => {
    const wrongFamily = score({ fullName: 'Ostrava Melisande Quillberry' }, '1');
    const wrongGiven = score({ fullName: 'Ostrava Melberry Quillfeather' }, '1');
    expect(wrongGiven).toBeGreaterThan(wrongFamily);
  });

  it('never makes a strong hit of a weak alias alone, even with a matching date of birth', () => {
    const h = hit({ fullName: 'The Heron', dateOfBirth: '1971-03-14' }, '1');
    expect(h?.score ?? 0).toBeLessThanOrEqual(0.7);
    expect(h?.reasons.join(' ')).toMatch(/weak/);
  });

  it('moves the score with the date of birth: exact, year, range match and mismatch', () => {
    const base = score({ fullName: 'Ostrava Quillfeather' }, '1');
    expect(score({ fullName: 'Ostrava Quillfeather', dateOfBirth: '1971-03-14' }, '1')).toBeGreaterThan(base);
    expect(score({ fullName: 'Ostrava Quillfeather', dateOfBirth: '1971' }, '1')).toBeGreaterThan(base);
    expect(score({ fullName: 'Ostrava Quillfeather', dateOfBirth: '1971-09-01' }, '1')).toBeLessThan(base);
    expect(score({ fullName: 'Ostrava Quillfeather', dateOfBirth: '1985-03-14' }, '1')).toBeLessThan(0.85);
    expect(hit({ fullName: 'Zakhar Pustovalov', dateOfBirth: '1966-01-01' }, '2')?.reasons.join(' ')).toMatch(/year agrees with listed 1964 to 1967: \+0\.03/);
    expect(hit({ fullName: 'Zakhar Pustovalov', dateOfBirth: '1990-01-01' }, '2')?.reasons.join(' ')).toMatch(/differs.*-0\.20/);
    expect(score({ fullName: 'Khalil Qarawash', dateOfBirth: '1977' }, '3')).toBeGreaterThan(score({ fullName: 'Khalil Qarawash', dateOfBirth: '1990' }, '3'));
  });

  it('lowers the score on a nationality or gender the list contradicts', () => {
    const base = score({ fullName: 'Ostrava Quillfeather' }, '1');
    const other = hit({ fullName: 'Ostrava Quillfeather', nationality: 'FR' }, '1');
    expect(other?.score).toBeLessThan(base);
    expect(other?.reasons.join(' ')).toMatch(/nationality FR not among listed GB/);
    expect(score({ fullName: 'Ostrava Quillfeather', gender: 'male' }, '1')).toBeLessThan(base);
  });

  it('treats a passport number on the list as strong evidence, even under another name', () => {
    const h = hit({ fullName: 'Jane Example', documentNumbers: ['zt-441 7102'] }, '1');
    expect(h?.score).toBeGreaterThanOrEqual(0.85);
    expect(h?.reasons.join(' ')).toMatch(/document number on the list \(passport\)/);
    expect(score({ fullName: 'Ostrava Quillfeather', documentNumbers: ['ZT4417102'] }, '1')).toBe(1);
  });

  it('never matches a person against entities or vessels', () => {
    expect(index.screen({ fullName: 'Paperlantern Relief Society' }).hits).toEqual([]);
    expect(index.screen({ fullName: 'Glimmering Otter' }).hits).toEqual([]);
  });

  it('takes spelling variants (doubled letters, transliterations) but not another form of a name', () => {
    const variants = ScreeningIndex.build([
      person('10', [primary('KARIMOVA, Gulnara', 'KARIMOVA', 'Gulnara')]),
      person('11', [primary('HASSAN, Mohamed', 'HASSAN', 'Mohamed')]),
      person('12', [primary('PETROVIC, Zoran', 'PETROVIC', 'Zoran')]),
    ]);
    const best = (fullName: string) => variants.screen({ fullName }).best;
    expect(best('Mohammed Hasan')).toBeGreaterThanOrEqual(0.85);
    expect(best('Muhammad Hassan')).toBeGreaterThanOrEqual(0.85);
    expect(best('Gulnara Karimov')).toBeLessThan(0.83);
    expect(best('Zoran Petrov')).toBeLessThan(0.83);
  });

  it('does not hit unrelated ordinary names', () => {
    expect(index.screen({ fullName: 'Maria Garcia Lopez', dateOfBirth: '1980-01-01' }).best).toBeLessThan(0.85);
    expect(index.screen({ fullName: 'Einar Tollefsen', dateOfBirth: '1980-01-01' }).best).toBeLessThan(0.85);
    expect(index.screen({ fullName: 'Zakhar Petrov' }).best).toBeLessThan(0.85);
  });
});
