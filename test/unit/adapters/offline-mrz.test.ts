import { checkDigit, identity, random, td1, td3 } from '../../../scripts/documents/identity';
import { parseAamva } from '../../../src/adapters/offline/aamva';
import { checkNameField, combineReads, findMrzLines, fitLength, mergeNameLines, mrzDate, normalizeLine, readMrz } from '../../../src/adapters/offline/mrz';
import { aamva } from '../../../scripts/documents/identity';

const person = identity(random(42), { nationality: 'DEU' });
const [line1, line2] = td3(person);

describe('MRZ lines from OCR text', () => {
  it('maps OCR renderings of the filler and the multiplication sign, and drops spaces', () => {
    expect(normalizeLine('p<deu smith« ×')).toBe('P<DEUSMITH<X');
  });

  it('mends a line to its length in its longest run of fillers', () => {
    expect(fitLength('AB<<<<CD<E', 12)).toBe('AB<<<<<<CD<E');
    expect(fitLength('AB<<<<CD<E', 8)).toBe('AB<<CD<E');
  });

  it('finds a TD3 among other lines, and a TD1 of three lines', () => {
    expect(findMrzLines(['PASSPORT', 'Surname / Nom', 'SMITH'])).toBeUndefined();
    expect(findMrzLines(['PASSPORT', line1, line2])).toMatchObject({ format: 'TD3', lines: [line1, line2], suspect: false });
    expect(findMrzLines(td1(person))).toMatchObject({ format: 'TD1' });
  });

  it('turns a filler read as a lone K back into a filler, and no longer trusts the names', () => {
    const [a, b, c] = td1(person);
    const misread = `${c.replace(/<+$/, '')}<K`.padEnd(30, '<');
    const read = readMrz({ format: 'TD1', lines: [a, b, misread], suspect: false });
    expect(read?.fields.givenNames).toBe(person.givenNames);
    expect(read?.suspect).toBe(true);
  });

  it('takes a names line read short (runs of fillers merged) above a TD3 data line', () => {
    expect(findMrzLines(['TORONTO', line1.replace(/<+$/, '<<<'), line2])).toMatchObject({ format: 'TD3', lines: [line1, line2], suspect: true });
    expect(findMrzLines(['TORONTO', 'MINISTRY<<OF<INTERNAL', line2])?.lines[0]).toBe(`P<DEU${'<'.repeat(39)}`);
  });

  it('takes the MRZ out of lines merged with printed text beside it (a document photographed on a printed page)', () => {
    const found = findMrzLines(['A210 CTPaH1 PCAZEARGEDAS<<CEYLA<<<<<<<<', 'yMepHbIe QR', 'Smart IDRe C051777748AZE7611175F2201133S2SSBW3<<<<<<<26']);
    expect(found?.lines).toEqual(['PCAZEARGEDAS<<CEYLA'.padEnd(44, '<'), 'C051777748AZE7611175F2201133S2SSBW3<<<<<<<26']);
    expect(found?.suspect).toBe(true);
  });

  it('takes no pair of lines of capitals without fillers or dates for an MRZ', () => {
    const capitals = ['CYMEHTOBBBHIEOMOTOKEKAMEPBIMOOWIBHOROYCTPOHC', 'OTHUEHCKOEYHOCTOBEPEHHEANDROIDLBHIEOIOTOKOMB'];
    expect(findMrzLines(capitals)).toBeUndefined();
    expect(findMrzLines([...capitals, line1, line2])?.lines).toEqual([line1, line2]);
    expect(findMrzLines([line1, line2, capitals[0] as string])?.lines).toEqual([line1, line2]);
  });

  it('flags lines with characters OCR could not place', () => {
    expect(findMrzLines([line1.replace('<<', '<¢'), line2])?.suspect).toBe(true);
  });
});

describe('reading and repairing', () => {
  it('reads every field of a correct TD3', () => {
    const read = readMrz({ format: 'TD3', lines: [line1, line2], suspect: false });
    expect(read).toMatchObject({ valid: true, invalid: [] });
    expect(read?.fields).toMatchObject({ surname: person.surname, givenNames: person.givenNames, documentNumber: person.documentNumber, dateOfBirth: person.dateOfBirth, expirationDate: person.expirationDate, issuingState: 'DEU' });
  });

  it('repairs a look-alike in the document number only because its check digit proves it', () => {
    const at = [...line2.slice(0, 9)].findIndex((c) => /\d/.test(c) && '0158'.includes(c));
    if (at < 0) return expect(at).toBeGreaterThanOrEqual(0);
    const swapped = `${line2.slice(0, at)}${{ '0': 'O', '1': 'I', '5': 'S', '8': 'B' }[line2[at] as '0']}${line2.slice(at + 1)}`;
    const read = readMrz({ format: 'TD3', lines: [line1, swapped], suspect: false });
    expect(read?.fields.documentNumber).toBe(person.documentNumber);
    expect(read?.valid).toBe(true);
  });

  it('leaves a misread digit that no look-alike explains failing its check digit', () => {
    const wrong = `${line2.slice(0, 13)}${line2[13] === '1' ? '2' : '1'}${line2.slice(14)}`;
    const read = readMrz({ format: 'TD3', lines: [line1, wrong], suspect: false });
    expect(read?.valid).toBe(false);
    expect(read?.invalid).toContain('birthDateCheckDigit');
  });

  it('puts birth years in the past century and expiry years in this one', () => {
    const today = new Date('2026-11-22T00:00:00Z');
    expect(mrzDate('740812', 'birth', today)).toBe('1974-08-12');
    expect(mrzDate('050101', 'birth', today)).toBe('2005-01-01');
    expect(mrzDate('340522', 'expiry', today)).toBe('2034-05-22');
    expect(mrzDate('74O812', 'birth', today)).toBe('');
  });

  it('computes ICAO check digits (7-3-1 weights, < as 0)', () => {
    expect(checkDigit('L898902C3')).toBe('6');
    expect(checkDigit('740812')).toBe('2');
    expect(checkDigit('<<<<')).toBe('0');
  });
});

describe('code fields no check digit protects', () => {
  const german = identity(random(3), { nationality: 'DEU' });
  it('reads Germany written D<< as DEU, trusted', () => {
    const [a, b] = td3(german).map((l) => l.replace(/DEU/g, 'D<<'));
    const read = readMrz({ format: 'TD3', lines: [a as string, b as string], suspect: false });
    expect(read?.valid).toBe(true);
    expect(read?.fields).toMatchObject({ issuingState: 'DEU', nationality: 'DEU' });
    expect(read?.unknownCodes).toEqual([]);
  });

  it('maps a British overseas citizen code to GBR', () => {
    const [a, b] = td3(german).map((l) => l.replace(/DEU/g, 'GBO'));
    const read = readMrz({ format: 'TD3', lines: [a as string, b as string], suspect: false });
    expect(read?.fields).toMatchObject({ issuingState: 'GBR', nationality: 'GBR' });
    expect(read?.unknownCodes).toEqual([]);
  });

  it('reports a code ICAO does not know as read, and marks it untrusted even when every check digit holds', () => {
    const a = line1.replace('P<DEU', 'P<UTD');
    const b = `${line2.slice(0, 10)}PDL${line2.slice(13)}`;
    const read = readMrz({ format: 'TD3', lines: [a, b], suspect: false });
    expect(read?.valid).toBe(true);
    expect(read?.fields).toMatchObject({ issuingState: 'UTD', nationality: 'PDL' });
    expect(read?.unknownCodes).toEqual(['issuingState', 'nationality']);
  });

  it('repairs an issuing state that is no code from the nationality one misread away, untrusted', () => {
    const monaco = identity(random(4), { nationality: 'MCO' });
    for (const [misread, from] of [['NOO', 'MCO'], ['IEI', 'LIE'], ['MCQ', 'MCO']] as const) {
      const [a, b] = td3({ ...monaco, nationality: from });
      const read = readMrz({ format: 'TD3', lines: [(a as string).replace(`P<${from}`, `P<${misread}`), b as string], suspect: false });
      expect(read?.fields.issuingState).toBe(from);
      expect(read?.repairedCodes).toEqual(['issuingState']);
      expect(read?.unknownCodes).toEqual([]);
    }
  });

  it('leaves an unknown issuing state far from the nationality as read', () => {
    const [a, b] = td3(identity(random(4), { nationality: 'CHE' }));
    const read = readMrz({ format: 'TD3', lines: [(a as string).replace('P<CHE', 'P<NLQ'), b as string], suspect: false });
    expect(read?.fields.issuingState).toBe('NLQ');
    expect(read?.repairedCodes).toEqual([]);
    expect(read?.unknownCodes).toEqual(['issuingState']);
  });

  it('marks a valid ICAO code with no API country (stateless XXA) untrusted', () => {
    const [a, b] = td3(german).map((l) => l.replace(/DEU/g, 'XXA'));
    const read = readMrz({ format: 'TD3', lines: [a as string, b as string], suspect: false });
    expect(read?.fields.issuingState).toBe('XXA');
    expect(read?.unknownCodes).toEqual(['issuingState', 'nationality']);
  });
});

describe('name lines: fillers read as letters', () => {
  const field = (names: string, length = 39) => names.padEnd(length, '<');
  it('turns K/C/L after the closing fillers back into fillers; a longer run is no name, so the repair is proven', () => {
    expect(checkNameField(field('SMITH<<JOHN<<KK<KKKK'))).toEqual({ field: field('SMITH<<JOHN'), suspect: false });
  });

  it('repairs a lone K after the names but no longer trusts them (it could be an initial)', () => {
    expect(checkNameField(field('SMITH<<JOHN<K'))).toEqual({ field: field('SMITH<<JOHN'), suspect: true });
  });

  it('does not trust a name ending in three or more K/C/L, and returns them to fillers', () => {
    expect(checkNameField('ESPANOLA<ESPANOLA<<CARMEN'.padEnd(39, 'K'))).toEqual({ field: field('ESPANOLA<ESPANOLA<<CARMEN'), suspect: true });
  });

  it('puts back a separator read as KK in names that have none, untrusted', () => {
    expect(checkNameField('ESPANOLA<ESPANOLAKKCARMEN'.padEnd(39, 'K'))).toEqual({ field: field('ESPANOLA<ESPANOLA<<CARMEN'), suspect: true });
    expect(checkNameField(field('TESTKKMILICA'))).toEqual({ field: field('TEST<<MILICA'), suspect: true });
  });

  it('takes the letter a lost separator was read as for a filler where it ends the names', () => {
    expect(checkNameField(field('GAIMUKKSAKURAK<<<<<<KK<<<<'))).toEqual({ field: field('GAIMU<<SAKURA'), suspect: true });
    expect(checkNameField(field('FALK<<ERIK'))).toEqual({ field: field('FALK<<ERIK'), suspect: false });
  });

  it('puts back a separator read as one filler and a K or C, untrusted', () => {
    expect(checkNameField(field('AMAN<KRITA<TANIA'))).toEqual({ field: field('AMAN<<RITA<TANIA'), suspect: true });
    expect(checkNameField(field('BASANAVICIENEC<BIRUTE', 30))).toEqual({ field: field('BASANAVICIENE<<BIRUTE', 30), suspect: true });
  });

  it('does not trust names without separator or trace of one when they contain a run of K/C/L', () => {
    expect(checkNameField(field('ESPANOLA<ESPANOLAKLCARMEN'))).toEqual({ field: field('ESPANOLA<ESPANOLAKLCARMEN'), suspect: true });
  });

  it('ends the names at three fillers: letters after them are fillers read as letters, untrusted', () => {
    expect(checkNameField('TEST<<MILICA<<<<<<<<KK<<KRKLKK')).toEqual({ field: field('TEST<<MILICA', 30), suspect: true });
  });

  it('does not trust a two-letter K/C ending that names do not have', () => {
    expect(checkNameField(field('SMITH<<JOHNKK')).suspect).toBe(true);
  });

  it('keeps and trusts genuine names with K, C and L endings and double letters', () => {
    for (const names of ['HALL<<ERIK', 'BECK<<PAUL<MICHAL', 'MIKKELSEN<<ANNA', 'FALK<<NICK', 'VILLA<<ISABELLA<LUCIA']) expect(checkNameField(field(names))).toEqual({ field: field(names), suspect: false });
  });

  it('takes a filler where one read shows it and the others a letter OCR gives for fillers', () => {
    const a = 'BELSER<<JULIETTEKHENRIKEKSOPHI';
    const c = 'BELSER<<JULIETTE<HENRIKE<SOPHI';
    expect(mergeNameLines([a, a, c])).toBe(c);
    expect(mergeNameLines(['TESTKKMILICA<<<<<<<<<<<<<<<<<<', 'TESTRKMILICAK<K<<<<<<<<<<<<<<<', 'TEST<KMILICA<K<K<<<<<<<<<<<<<<'])).toBe('TEST<KMILICA<<<<<<<<<<<<<<<<<<');
  });

  it('keeps real letters against a filler in a read shifted by a lost character', () => {
    const shifted = 'ERIKSSON<<ANNA<MARIA<<<<<<<<<';
    expect(mergeNameLines([field('ERIKSSON<<ANNA<MARIA', 30), `${shifted.slice(0, 3)}${shifted.slice(4)}<`])).toBe(field('ERIKSSON<<ANNA<MARIA', 30));
  });

  it('does not trust merged names that no two reads gave, even where two reads agree with each other', () => {
    const [a, b] = td1(identity(random(9), { nationality: 'NLD' }));
    const read = (c: string) => ({ format: 'TD1' as const, suspect: false, lines: [a, b, c] });
    const combined = combineReads([read('BELSER<<JULIETTEKHENRIKEKSOPHI'), read('BELSER<<JULIETTEKHENRIKEKSOPHI'), read('BELSER<<JULIETTE<HENRIKE<SOPHI')]);
    expect(combined?.read.fields.givenNames).toBe('JULIETTE HENRIKE SOPHI');
    expect(combined?.namesAgreed).toBe(false);
  });

  it('gives the repaired names, untrusted, when two reads agree on a misread names line', () => {
    const misread = 'P<ESPESPANOLA<ESPANOLAKKCARMEN'.padEnd(44, 'K');
    const data = td3(identity(random(5), { nationality: 'ESP' }))[1];
    const combined = combineReads([{ format: 'TD3', suspect: false, lines: [misread, data] }, { format: 'TD3', suspect: false, lines: [misread, data] }]);
    expect(combined?.namesAgreed).toBe(true);
    expect(combined?.read.suspect).toBe(true);
  });
});

describe('combining reads', () => {
  const name = { format: 'TD3' as const, suspect: false };
  it('trusts names only when two reads agree on the name line', () => {
    const misread = line1.replace(person.surname, `${person.surname.slice(0, -1)}Q`);
    expect(combineReads([{ ...name, lines: [line1, line2] }, { ...name, lines: [misread, line2] }])?.namesAgreed).toBe(false);
    const three = combineReads([{ ...name, lines: [line1, line2] }, { ...name, lines: [misread, line2] }, { ...name, lines: [line1, line2] }]);
    expect(three?.namesAgreed).toBe(true);
    expect(three?.read.fields.surname).toBe(person.surname);
  });

  it('prefers the line whose check digits hold', () => {
    const bad = `${line2.slice(0, 2)}${line2[2] === '7' ? '4' : '7'}${line2.slice(3)}`;
    const combined = combineReads([{ ...name, lines: [line1, bad] }, { ...name, lines: [line1, line2] }]);
    expect(combined?.read.valid).toBe(true);
    expect(combined?.read.fields.documentNumber).toBe(person.documentNumber);
  });

  it('puts back a document code lost at the left edge when the check digits agree', () => {
    const [a, b, c] = td1(person);
    const combined = combineReads([{ format: 'TD1', suspect: false, lines: [fitLength(a.slice(1), 30), b, c] }]);
    expect(combined?.read.valid).toBe(true);
    expect(combined?.read.fields.documentNumber).toBe(person.documentNumber);
  });

  it('does not trust a number whose O/0 swaps pass the same check digits', () => {
    const twin = { ...person, documentNumber: 'MZ6003221' };
    const [, l2] = td3(twin);
    const swapped = `MZ6OO3221${l2.slice(9)}`;
    const combined = combineReads([{ ...name, lines: [td3(twin)[0], swapped] }]);
    expect(combined?.numberAmbiguous).toBe(true);
    expect(combined?.read.fields.documentNumber).toBe('MZ6003221');
  });
});

describe('AAMVA barcode text', () => {
  it('parses names, dates, address and number as generated', () => {
    const p = identity(random(7), { place: 'US', nationality: 'USA', numberFormat: 'dl' });
    expect(parseAamva(aamva(p))).toEqual({
      surname: p.surname, givenNames: p.givenNames, dateOfBirth: p.dateOfBirth, expirationDate: p.expirationDate, number: p.documentNumber,
      street: p.street, city: p.place.city, state: p.place.state, zip: p.place.zip, country: 'USA', untrusted: [],
    });
  });

  it('ignores text that is not AAMVA', () => {
    expect(parseAamva('https://example.com')).toBeUndefined();
  });
});
