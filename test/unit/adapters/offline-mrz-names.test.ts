import { identity, random, td1, td3 } from '../../../scripts/documents/identity';
import { combineReads, issuingStateTrust, mrzNames, nameRead, type NameRead, SUPPORTED_NAME, UNSUPPORTED_NAME } from '../../../src/adapters/offline/mrz';
import type { Reading } from '../../../src/domain/rule-types';

/**
 * MRZ names have no check digit: they are trusted only when something independent gives the same name
 * (mrzNames). The reads below are what PaddleOCR gave on generated passports whose MRZ is printed in
 * DejaVu Sans Mono (scripts/bench/mrz-fonts.ts): two reads of the same glyphs, the same misreading.
 */
const MIN_CONFIDENCE = 0.6;
const holder = { ...identity(random(1014), { nationality: 'CAN' }), surname: 'VAN DER BERG', givenNames: 'SOFIA' };
const [names, data] = td3(holder);
const misread = names.replace('SOFIA', 'SOFA<');
const paddle = (line: string) => ({ format: 'TD3' as const, suspect: false, lines: [line, data] });
const printed = (field: string, value: string, confidence = 0.9): Reading => ({ field, value, source: 'printed', confidence });

describe('MRZ names: trusted only with independent support', () => {
  it('does not trust a name two reads of one engine misread alike, whatever their agreement (SOFA for SOFIA in DejaVu Sans Mono)', () => {
    const combined = combineReads([paddle(misread), paddle(misread)])!;
    // The rule before: two reads agreeing on the names line made them trusted.
    expect(combined.namesAgreed).toBe(true);
    const { givenNames, surname } = mrzNames(combined, [printed('person.surname', 'VAN DER BERG'), printed('person.given_names', 'SOFIA')]);
    // The printed name, a letter from the MRZ's, is reported instead, untrusted: one source.
    expect(givenNames.value).toBe('SOFIA');
    expect(givenNames.confidence).toBeLessThan(MIN_CONFIDENCE);
    // The surname the printed zone gives exactly is supported.
    expect(surname).toEqual({ value: 'VAN DER BERG', confidence: SUPPORTED_NAME, support: 'printed' });
  });

  it('does not trust agreeing reads when the printed zone was not read', () => {
    const { surname, givenNames } = mrzNames(combineReads([paddle(names), paddle(names)])!, []);
    expect([surname.confidence, givenNames.confidence]).toEqual([UNSUPPORTED_NAME, UNSUPPORTED_NAME]);
    expect(givenNames.value).toBe('SOFIA');
  });

  it('reports the read the printed zone confirms: two sources agreeing on it', () => {
    const narrow: NameRead = { line: names, engine: 'paddle' };
    const { givenNames } = mrzNames(combineReads([paddle(misread), paddle(misread)])!, [printed('person.given_names', 'SOFIA')], [narrow]);
    expect(givenNames).toEqual({ value: 'SOFIA', confidence: SUPPORTED_NAME, support: 'printed' });
  });

  it('takes no support from a printed reading below the trust threshold, nor from a printed name that only starts the same', () => {
    const combined = combineReads([paddle(misread), paddle(misread)])!;
    expect(mrzNames(combined, [printed('person.given_names', 'SOFA', 0.5)]).givenNames.confidence).toBe(UNSUPPORTED_NAME);
    const short = combineReads([paddle(names.replace('SOFIA', 'SOF<<'))])!;
    expect(mrzNames(short, [printed('person.given_names', 'SOF IA')]).givenNames.confidence).toBe(UNSUPPORTED_NAME);
    const first = td1({ ...holder, givenNames: 'ANNA' });
    const card = combineReads([{ format: 'TD1', suspect: false, lines: first }])!;
    expect(mrzNames(card, [printed('person.given_names', 'ANNA LENA')]).givenNames.confidence).toBe(UNSUPPORTED_NAME);
  });

  it('is supported through ICAO transliteration and spacing (MÜLLER printed, MUELLER in the MRZ)', () => {
    const german = { ...holder, nationality: 'DEU', surname: 'MUELLER', givenNames: 'ANNA MARIA' };
    const [n, d] = td3(german);
    const combined = combineReads([{ format: 'TD3', suspect: false, lines: [n, d] }])!;
    const { surname, givenNames } = mrzNames(combined, [printed('person.surname', 'MULLER'), printed('person.given_names', 'ANNA-MARIA')]);
    expect([surname.confidence, givenNames.confidence]).toEqual([SUPPORTED_NAME, SUPPORTED_NAME]);
  });

  it('is supported by another engine giving the same names, never by more reads of the same engine', () => {
    const combined = combineReads([paddle(names), paddle(names)])!;
    const again = nameRead(names.replace(/<</g, '<<'), combined.read, 'paddle');
    expect(mrzNames(combined, [], [again]).givenNames.confidence).toBe(UNSUPPORTED_NAME);
    // Tesseract reads the fillers after the names as letters: the layout mends them before comparing.
    const tesseract = nameRead(`${names.slice(0, 26)}CCCCCLLLKK${names.slice(36)}`, combined.read, 'tesseract');
    expect(mrzNames(combined, [], [tesseract]).givenNames).toEqual({ value: 'SOFIA', confidence: SUPPORTED_NAME, support: 'engines' });
    const disagreeing = nameRead(misread, combined.read, 'tesseract');
    expect(mrzNames(combined, [], [disagreeing]).givenNames.confidence).toBe(UNSUPPORTED_NAME);
  });

  it('reports the names of a read that kept its fillers when the first reads lost them all (untrusted without support)', () => {
    // PaddleOCR reads DejaVu Sans Mono's thin `<` as nothing: the names line comes out without fillers.
    const blind = (text: string) => ({ format: 'TD3' as const, suspect: false, lines: [`${text}${'<'.repeat(44 - text.length)}`, data] });
    const combined = combineReads([blind('PCANVANDERBERGSOFIA'), blind('PCANVANDERBERGSOFA')])!;
    expect(combined.read.fields.surname).toBe('ANDERBERGSOFIA');
    const narrow = nameRead(names, combined.read, 'paddle');
    const alone = mrzNames(combined, [], [narrow]);
    expect([alone.surname.value, alone.givenNames.value, alone.surname.confidence]).toEqual(['VAN DER BERG', 'SOFIA', UNSUPPORTED_NAME]);
    const confirmed = mrzNames(combined, [printed('person.surname', 'VAN DER BERG'), printed('person.given_names', 'SOFIA')], [narrow]);
    expect([confirmed.surname.confidence, confirmed.givenNames.confidence]).toEqual([SUPPORTED_NAME, SUPPORTED_NAME]);
  });
});

describe('the issuing state: no check digit covers it', () => {
  it('is not trusted when a filler lost before it shifts another code into its place, though every check digit holds', () => {
    const spanish = { ...identity(random(1006), { nationality: 'ESP' }), surname: 'MARTIN' };
    const [n, d] = td3(spanish);
    // DejaVu Sans Mono's `<` read as nothing: P<ESPMARTIN… comes out PESPMARTIN…, mended to P<SPM…
    const lost = combineReads([{ format: 'TD3', suspect: false, lines: [`P${n.slice(2)}<`, d] }])!;
    expect(lost.read.valid).toBe(true);
    expect(lost.read.fields.issuingState).toBe('SPM');
    expect(issuingStateTrust(lost.read)).toBeLessThan(MIN_CONFIDENCE);
    const read = combineReads([{ format: 'TD3', suspect: false, lines: [n, d] }])!;
    expect(issuingStateTrust(read.read)).toBe(0.9);
  });
});

describe('document numbers: a check digit that chose a repair does not also prove it', () => {
  const holder = { ...identity(random(1002), { nationality: 'FRA' }), documentNumber: 'FJ9036927' };
  const [n, d] = td3(holder);
  const read = (data: string) => ({ format: 'TD3' as const, suspect: false, lines: [n, data] });

  it('does not trust a number whose check digits hold only after a swap that compensates another misread (J read as 3, 0 swapped to O)', () => {
    const combined = combineReads([read(d.replace('FJ9036927', 'F39036927'))])!;
    expect(combined.read.fields.documentNumber).toBe('F39O36927');
    expect(combined.read.valid).toBe(true);
    // fillMrz reports an ambiguous number at 0.5.
    expect(combined.numberAmbiguous).toBe(true);
  });

  it('trusts a repaired number a read gave as it is', () => {
    const combined = combineReads([read(d.replace('FJ9036927', 'FJ9O36927')), read(d)])!;
    expect(combined.read.fields.documentNumber).toBe('FJ9036927');
    expect(combined.numberAmbiguous).toBe(false);
  });
});

describe('MRZ names not read at all', () => {
  it('reports the printed names, untrusted, when no read of the names line gave any (a names line detected in pieces)', () => {
    const person = identity(random(1001), { nationality: 'FRA' });
    const data = td3(person)[1];
    const combined = combineReads([{ format: 'TD3', suspect: true, lines: [`P<FRA${'<'.repeat(39)}`, data] }])!;
    const { surname, givenNames } = mrzNames(combined, [{ field: 'person.surname', value: 'SILVA', source: 'printed', confidence: 0.9 }, { field: 'person.given_names', value: 'CHLOE', source: 'printed', confidence: 0.9 }]);
    expect([surname.value, surname.confidence, givenNames.value, givenNames.confidence]).toEqual(['SILVA', UNSUPPORTED_NAME, 'CHLOE', UNSUPPORTED_NAME]);
  });
});

describe('an MRZ name misread by a few letters', () => {
  const person = { ...identity(random(1006), { nationality: 'FRA' }), surname: 'MARTIN', givenNames: 'LIAM' };
  const [n, d] = td3(person);
  const printedSurname = (value: string): Reading[] => [{ field: 'person.surname', value, source: 'printed', confidence: 0.9 }];

  it('reports the printed name, untrusted, when the MRZ read is a few letters from it (MARN for MARTIN in Cousine)', () => {
    const combined = combineReads([{ format: 'TD3', suspect: false, lines: [n.replace('MARTIN<<', 'MARN<<<<'), d] }])!;
    expect(mrzNames(combined, printedSurname('MARTIN')).surname).toEqual({ value: 'MARTIN', confidence: UNSUPPORTED_NAME, support: 'none' });
  });

  it("keeps the MRZ's name when the printed one is another name (a re-printed front over a genuine MRZ)", () => {
    const combined = combineReads([{ format: 'TD3', suspect: false, lines: [n, d] }])!;
    expect(mrzNames(combined, printedSurname('HOLLAND')).surname).toEqual({ value: 'MARTIN', confidence: UNSUPPORTED_NAME, support: 'none' });
  });
});
