import { allAgree, DOUBTFUL, LABELLED, type MrzValues, readViz, valueSized, type VizLine, vizDates } from '../../../src/adapters/offline/viz';

/** A page of lines placed top to bottom: [text, left, top, height?, mean?]. */
const page = (rows: [string, number, number, number?, number?][]): VizLine[] =>
  rows.map(([text, left, top, h = 14, mean = 0.97]) => ({ text, mean, left, top, right: left + text.length * 9, bottom: top + h }));

const mrz: MrzValues = { surname: 'MUELLER', givenNames: 'ANNA MARIA', dateOfBirth: '1985-01-12', documentNumber: 'C01X00T47', expirationDate: '2031-03-02' };

/** A German-style data page: labels above values, dates printed "12 JAN/JAN 85". */
const genuine = (surname = 'MÜLLER', dob = '12 JAN/JAN 85') =>
  page([
    ['Pass-Nr./Passport No./No du passeport', 300, 80, 10],
    ['C01X00T47', 300, 96, 16],
    ['Name/Surname/Nom', 300, 130, 10],
    [surname, 300, 146, 16],
    ['Vornamen/Given names/Prénoms', 300, 180, 10],
    ['ANNA MARIA', 300, 196, 16],
    ['Geburtstag/Date of birth/Date de naissance', 300, 230, 10],
    [dob, 300, 246, 16],
    ['Gültig bis/Date of expiry/Date d’expiration', 300, 280, 10],
    ['02.03.2031', 300, 296, 16],
  ]);

const field = (readings: ReturnType<typeof readViz>, name: string) => readings.find((r) => r.field === name);

describe('printed dates', () => {
  it('reads the spellings of data pages, two-digit years in the MRZ century', () => {
    expect(vizDates('12 JAN/JAN 85', 19)[0]?.isos).toEqual(['1985-01-12']);
    expect(vizDates('12 JANV/JAN 1985', 20)[0]?.isos).toEqual(['1985-01-12']);
    expect(vizDates('12.01.1985', 19)[0]?.isos).toEqual(['1985-01-12', '1985-12-01']);
    expect(vizDates('02 OKT/OCT 2031', 20)[0]?.isos).toEqual(['2031-10-02']);
    expect(vizDates('12JAN85', 19)[0]?.isos).toEqual(['1985-01-12']);
    expect(vizDates('PASSPORT', 19)).toEqual([]);
  });
});

describe('the printed zone beside the MRZ', () => {
  it('reads every field under its label, trusted, agreeing with the MRZ through transliteration and the VIZ date format', () => {
    const readings = readViz(genuine(), mrz, 'DMY');
    expect(readings.map((r) => [r.field, r.value, r.confidence, r.agrees])).toEqual([
      ['person.given_names', 'ANNA MARIA', LABELLED, true],
      ['person.surname', 'MULLER', LABELLED, true],
      ['person.date_of_birth', '1985-01-12', LABELLED, true],
      ['document.expiration_date', '2031-03-02', LABELLED, true],
      ['document.number', 'C01X00T47', LABELLED, true],
    ]);
    expect(readings.every((r) => r.source === 'printed' && r.confirm === undefined)).toBe(true);
    expect(allAgree(readings, mrz)).toBe(true);
  });

  it('reports a printed surname that differs from the MRZ as a trusted disagreement to read again', () => {
    const lines = genuine('SCHNEIDER');
    const surname = field(readViz(lines, mrz, 'DMY'), 'person.surname');
    expect(surname).toMatchObject({ value: 'SCHNEIDER', confidence: LABELLED, agrees: false });
    expect(surname?.confirm?.text).toBe('SCHNEIDER');
  });

  it('reports a printed date of birth that differs as a disagreement', () => {
    expect(field(readViz(genuine('MÜLLER', '21 JUL/JUL 79'), mrz, 'DMY'), 'person.date_of_birth')).toMatchObject({ value: '1979-07-21', agrees: false, confidence: LABELLED });
  });

  it('does not trust a differing value when the MRZ value is printed elsewhere (the label was matched to the wrong line) or the line read poorly', () => {
    const elsewhere = [...genuine('SCHNEIDER'), ...page([['MUELLER', 700, 146, 16]])];
    expect(field(readViz(elsewhere, mrz, 'DMY'), 'person.surname')).toMatchObject({ value: 'SCHNEIDER', confidence: DOUBTFUL });
    const blurred = genuine().map((l) => (l.text === 'MÜLLER' ? { ...l, text: 'SCHNEIDER', mean: 0.6 } : l));
    expect(field(readViz(blurred, mrz, 'DMY'), 'person.surname')).toMatchObject({ confidence: DOUBTFUL });
  });

  it('finds the MRZ values without labels, and reads nothing from an unreadable zone', () => {
    const unlabelled = page([
      ['MUELLER', 300, 100, 16],
      ['ANNA MARIA', 300, 140, 16],
      ['12 JAN 1985', 300, 180, 16],
    ]);
    const readings = readViz(unlabelled, mrz, 'DMY');
    expect(field(readings, 'person.surname')).toMatchObject({ value: 'MUELLER', agrees: true });
    expect(field(readings, 'person.date_of_birth')).toMatchObject({ value: '1985-01-12', agrees: true });
    expect(field(readings, 'document.number')).toBeUndefined();
    // A hit a character off (ÆVARSDÓTTIR read EVARSDOTTIR) is reported, untrusted: it cannot make a disagreement.
    const slip = readViz(page([['EVARSDOTTIR', 300, 100, 16]]), { ...mrz, surname: 'AEVARSDOTTIR' }, 'DMY');
    expect(field(slip, 'person.surname')).toMatchObject({ value: 'EVARSDOTTIR', confidence: DOUBTFUL });
    expect(readViz(page([['ТЕСТ МИЛИЦА', 300, 100, 16], ['Презиме/Surname', 300, 80, 10]]), { ...mrz, surname: 'TEST', givenNames: 'MILICA' }, 'DMY')).toEqual([]);
  });

  it('reads a licence front (LN, FN, DOB, EXP, DL) in the US date order', () => {
    const front = page([
      ['DL', 300, 80, 10],
      ['M8377441', 300, 96, 16],
      ['EXP', 600, 80, 10],
      ['09/10/2029', 600, 96, 16],
      ['LN', 300, 130, 10],
      ['ANDERSSON', 300, 146, 16],
      ['FN', 300, 180, 10],
      ['MATEO VIKTOR', 300, 196, 16],
      ['DOB', 300, 230, 10],
      ['07/12/1997', 300, 246, 16],
    ]);
    const barcode: MrzValues = { surname: 'ANDERSSON', givenNames: 'MATEO VIKTOR', dateOfBirth: '1997-07-12', documentNumber: 'M8377441', expirationDate: '2029-09-10' };
    expect(readViz(front, barcode, 'MDY').every((r) => r.agrees && r.confidence === LABELLED)).toBe(true);
  });

  it('reads the value-sized lines first', () => {
    const lines = genuine();
    expect(valueSized(lines, (l) => l.bottom - l.top).map((l) => l.text)).toEqual(['C01X00T47', 'MÜLLER', 'ANNA MARIA', '12 JAN/JAN 85', '02.03.2031']);
  });
});

describe('the printed zone as support for the MRZ: a value counts only where its field is printed', () => {
  const values: MrzValues = { surname: 'CITIZEN', givenNames: 'JANE', dateOfBirth: '1985-01-12', documentNumber: 'PA0000001', expirationDate: '2031-03-02' };
  /** A British page without readable labels: the nationality line says BRITISH CITIZEN. */
  const british = page([
    ['SPECIMEN', 300, 146, 16],
    ['ANGELA ZOE', 300, 196, 16],
    ['BRITISH CITIZEN', 300, 230, 16],
  ]);

  it('does not trust a word found inside another field\'s line (CITIZEN in "BRITISH CITIZEN") for the surname', () => {
    const surname = field(readViz(british, values, 'DMY'), 'person.surname');
    expect(surname?.confidence ?? 0).toBeLessThan(0.6);
  });

  it('trusts a value found without its label when it is a line of its own', () => {
    const own = readViz(page([['CITIZEN', 300, 146, 16], ['JANE', 300, 196, 16]]), values, 'DMY');
    expect(field(own, 'person.surname')?.confidence).toBe(LABELLED);
  });

  it('never finds a name inside a longer word (an MRZ that lost a letter: AKAMURA in NAKAMURA)', () => {
    const lost: MrzValues = { ...values, surname: 'AKAMURA', givenNames: 'OLVIA' };
    const readings = readViz(page([['NAKAMURA', 300, 146, 16], ['OLIVIA', 300, 196, 16]]), lost, 'DMY');
    expect(field(readings, 'person.surname')).toMatchObject({ value: 'NAKAMURA', confidence: DOUBTFUL });
    expect(field(readings, 'person.given_names')?.confidence ?? 0).toBeLessThan(0.6);
  });

  it('reads a labelled name that differs from a misread MRZ by a letter as a disagreement to confirm, not as the MRZ value printed elsewhere', () => {
    const misread: MrzValues = { ...mrz, givenNames: 'ANNA MARA' };
    const given = field(readViz(genuine(), misread, 'DMY'), 'person.given_names');
    expect(given).toMatchObject({ value: 'ANNA MARIA', confidence: LABELLED, agrees: false });
    expect(given?.confirm?.text).toBe('ANNA MARIA');
  });

  it('reads the labelled names, to be confirmed, when the MRZ read gave none (a names line that lost its fillers)', () => {
    const none: MrzValues = { ...mrz, surname: '', givenNames: '' };
    expect(allAgree(readViz(genuine(), none, 'DMY'), none)).toBe(false);
    const readings = readViz(genuine(), none, 'DMY');
    expect(field(readings, 'person.surname')).toMatchObject({ value: 'MULLER', confidence: LABELLED, agrees: false });
    expect(field(readings, 'person.given_names')?.confirm?.text).toBe('ANNA MARIA');
  });
});
