import { readFront } from '../../../src/adapters/offline/layouts/front';
import type { VizLine } from '../../../src/adapters/offline/viz';

/**
 * Licence fronts read by their layout when the OCR misreads what is printed around the values (issue
 * 31): labels glued to their values or with a letter lost, field numbers lost or glued to a house
 * number. Fixtures are the placed lines (box in page pixels, text, recogniser mean) as the detector
 * and recogniser gave them on generated scanned and photographed fronts.
 */

const ln = (left: number, top: number, right: number, bottom: number, text: string, mean = 0.95): VizLine => ({ text, mean, left, top, right, bottom });
const fields = (lines: VizLine[], country: string) => Object.fromEntries(readFront(lines, country).map((r) => [r.field, r.value]));

describe('Canadian fronts: labels glued to their values or misread', () => {
  it("reads the number after Quebec's NUMÉRO glued to it (4dNUMEROC7371-462530-22)", () => {
    const lines = [ln(331, 158, 658, 186, '4dNUMEROC7371-462530-22'), ln(329, 202, 474, 238, 'INOM COTE'), ln(330, 254, 510, 281, '2PRENOM EMMA')];
    expect(fields(lines, 'CAN')['document.number']).toBe('C737146253022');
  });

  it('reads the given names after FN/PRÉNOM with its F lost (2NPRENOM ETIENNE) or glued to the name (2FN/PRENOME + METIENNE)', () => {
    const scanned = [ln(324, 157, 610, 193, '4d DLNONO PERMIS 8565290'), ln(327, 209, 540, 242, '1LNNOM GAGNON'), ln(325, 249, 571, 289, '2NPRENOM ETIENNE')];
    expect(fields(scanned, 'CAN')).toMatchObject({ 'person.surname': 'GAGNON', 'person.given_names': 'ETIENNE' });
    const photographed = [ln(433, 243, 694, 274, '4d DLNO/NO PERMIS 8565290'), ln(429, 289, 628, 321, '1LNNOM GAGNON'), ln(537, 333, 652, 365, 'METIENNE'), ln(429, 338, 545, 358, '2FN/PRENOME')];
    expect(fields(photographed, 'CAN')).toMatchObject({ 'person.surname': 'GAGNON', 'person.given_names': 'ETIENNE' });
  });
});

describe('US fronts: the address whose house number looks like a field number, or whose field number is glued to it', () => {
  it('reads a street whose house number is 10 to 19 under the label ADDRESS (13 ELM STREET is no field 13)', () => {
    const lines = [
      ln(420, 209, 439, 228, 'DL'), ln(421, 221, 557, 258, 'R0357624'), ln(424, 280, 441, 294, 'LN'), ln(422, 292, 526, 325, 'HARRIS'), ln(424, 347, 443, 364, 'FN'), ln(424, 359, 540, 395, 'BRENDA'),
      ln(427, 412, 481, 430, 'ADDRESS'), ln(427, 425, 605, 457, '13 ELM STREET'), ln(426, 457, 638, 490, 'AUSTIN,TX 78701'), ln(735, 475, 764, 495, 'SEX'), ln(429, 493, 459, 508, 'DOB'), ln(428, 503, 584, 538, '11/03/1950'),
    ];
    expect(fields(lines, 'USA')).toMatchObject({ 'address.street': '13 ELM STREET', 'address.city': 'AUSTIN', 'address.state': 'TX', 'address.zip': '78701' });
  });

  it('still ends an address at a field 15 glued to its label (15SEX), and never takes 9 B/BE for its continuation', () => {
    const lines = [ln(310, 380, 620, 410, '8 127 MAIN STREET'), ln(322, 420, 600, 450, 'AUSTIN, TX 78701'), ln(310, 480, 400, 505, '15SEX'), ln(420, 480, 450, 505, 'M')];
    expect(fields(lines, 'USA')).toMatchObject({ 'address.street': '127 MAIN STREET', 'address.zip': '78701' });
  });

  it('reads field 8 glued to the house number in a photograph whose tall boxes shrink the value column (8127MARVON AVE under 2MICHAEL JESSICA)', () => {
    const lines = [
      ln(423, 440, 577, 485, 'MILLER'), ln(408, 489, 665, 532, '2MICHAEL JESSICA'), ln(407, 532, 654, 574, '8127MARVON AVE'), ln(423, 571, 659, 611, 'AUSTIN,TX,78701', 0.79),
      ln(394, 636, 463, 661, '15SEX'), ln(470, 640, 495, 661, 'M'),
    ];
    expect(fields(lines, 'USA')).toMatchObject({ 'address.street': '127 MARVON AVE', 'address.city': 'AUSTIN', 'address.zip': '78701' });
  });

  it('keeps a glued 8 as the house number where nothing shows a column of field numbers (8127 MAIN ST over its city line)', () => {
    const lines = [ln(300, 400, 500, 430, 'ADDRESS'), ln(300, 440, 520, 470, '8127 MAIN ST'), ln(302, 480, 540, 510, 'AUSTIN, TX 78701')];
    expect(fields(lines, 'USA')).toMatchObject({ 'address.street': '8127 MAIN ST' });
  });
});

describe('field numbers lost: values placed by their row', () => {
  const guesses = (lines: VizLine[], country: string) => readFront(lines, country).filter((r) => r.guess).map((r) => r.field).sort();

  it('reads the UK driver number whose "5." was lost by its shape alone, never the issue number after it', () => {
    const lines = [
      ln(331, 167, 453, 195, '1.EVANS'), ln(331, 218, 476, 245, '2.WILLIAM'), ln(331, 268, 742, 297, '3.04.08.1962 UNITED KINGDOM'), ln(330, 320, 493, 344, '4a.08.05.2020'),
      ln(359, 372, 491, 393, '07.03.2030'), ln(333, 376, 367, 391, '4b.0'), ln(352, 419, 685, 448, 'EVANS658042W99WK 38'),
    ];
    const read = readFront(lines, 'GBR').find((r) => r.field === 'document.number');
    expect(read).toMatchObject({ value: 'EVANS658042W99WK' });
    expect(read?.guess).toBeUndefined();
  });

  it('places an EU birth date whose field number was lost (20.02.1972LEIPZIG, .01.12.1977 NANTES) under field 2, as a guess', () => {
    const de = [ln(421, 304, 588, 331, '2.JULIA TOBIAS'), ln(443, 353, 634, 379, '20.02.1972LEIPZIG'), ln(704, 399, 862, 426, '4cSTADT LEIPZIG'), ln(445, 498, 579, 528, '5.E88XGM7J27')];
    expect(fields(de, 'DEU')['person.date_of_birth']).toBe('1972-02-20');
    expect(guesses(de, 'DEU')).toEqual(['person.date_of_birth']);
    const fr = [ln(434, 290, 568, 327, '2.SOPHIE'), ln(456, 341, 736, 385, '.01.12.1977 NANTES'), ln(425, 392, 610, 426, '4a.06.03.2023'), ln(417, 486, 657, 526, '5.253997892095')];
    expect(fields(fr, 'FRA')['person.date_of_birth']).toBe('1977-12-01');
  });

  it('places no birth date from a row that starts with another field number (4a under field 2 when field 3 was not detected)', () => {
    const lines = [ln(434, 290, 568, 327, '2.SOPHIE'), ln(425, 340, 610, 376, '4a.06.03.2023'), ln(417, 486, 657, 526, '5.253997892095')];
    expect(fields(lines, 'FRA')['person.date_of_birth']).toBeUndefined();
  });

  it('places a US family name and given names whose numbers were both lost as the two rows over the address, as guesses', () => {
    const lines = [
      ln(339, 298, 414, 319, '9CLASS'), ln(500, 295, 573, 317, '12REST'), ln(513, 320, 601, 350, 'NONE'), ln(354, 327, 378, 351, 'D'),
      ln(323, 373, 498, 411, 'MILLER'), ln(323, 424, 596, 454, 'MICHAEL JESSICA'), ln(322, 468, 587, 498, '8127MARVONAVE'), ln(346, 506, 594, 537, 'AUSTIN,TX,78701', 0.8),
      ln(324, 578, 394, 602, '15SEX'), ln(402, 576, 428, 598, 'M'),
    ];
    expect(fields(lines, 'USA')).toMatchObject({ 'person.surname': 'MILLER', 'person.given_names': 'MICHAEL JESSICA', 'address.zip': '78701' });
    expect(guesses(lines, 'USA')).toEqual(['person.given_names', 'person.surname']);
  });
});

describe('a value the detector cut into boxes that only touch', () => {
  it('reads 4b.0 + 04.02.2 + 2.2029 (the last two a pixel or two in common) as 04.02.2029', () => {
    const lines = [
      ln(421, 305, 551, 333, '2.MATTEO'), ln(427, 352, 658, 380, '3.09.05.1969 ROMA'), ln(704, 397, 829, 427, '4c.MIT-UCO'),
      ln(518, 453, 573, 474, '2.2029'), ln(425, 461, 457, 476, '4b.0'), ln(452, 455, 520, 478, '04.02.2'), ln(421, 499, 602, 528, '5.UF7341325N'),
    ];
    expect(fields(lines, 'ITA')['document.expiration_date']).toBe('2029-02-04');
  });

  it('keeps words whose boxes touch apart when they share fewer than three characters (GABRIELLE + LEBLANC)', () => {
    const lines = [ln(300, 200, 420, 230, '1.'), ln(330, 200, 470, 230, 'MARIE'), ln(310, 250, 460, 280, '2.GABRIELLE'), ln(458, 250, 600, 280, 'LEBLANC')];
    expect(fields(lines, 'FRA')['person.given_names']).toBe('GABRIELLE LEBLANC');
  });
});

describe('field numbers misread beside their values', () => {
  it('reads field 8 glued to the house number of a one-line address when the row above starts in its column with its own field number (5：JONES…, 864ACACIAAVENUE…)', () => {
    const lines = [ln(422, 497, 695, 528, '5：JONES706141SG9DH 33'), ln(421, 547, 792, 578, '864ACACIAAVENUE,LONDON,SW1A2AA')];
    expect(fields(lines, 'GBR')).toMatchObject({ 'address.street': '64 ACACIAAVENUE', 'address.city': 'LONDON', 'address.zip': 'SW1A 2AA' });
    // The row above in the value column (its field number lost): nothing shows the 8 is a field number; the row is placed under field 5 by its position alone.
    const unnumbered = [ln(454, 497, 797, 528, 'EVANS711118H99GC 95'), ln(421, 547, 792, 578, '864ACACIAAVENUE,LONDON,SW1A2AA')];
    expect(readFront(unnumbered, 'GBR').find((r) => r.field === 'address.street')).toMatchObject({ value: '864 ACACIAAVENUE', guess: true });
  });

  it('reads field 8 run into the street name that follows it (8AVENIDA DE LA CONSTITUCION 59, …)', () => {
    const lines = [ln(417, 486, 657, 526, '5.27439152W'), ln(410, 540, 900, 570, '8AVENIDA DE LA CONSTITUCION 59, 29001 MALAGA')];
    expect(fields(lines, 'ESP')).toMatchObject({ 'address.street': 'AVENIDA DE LA CONSTITUCION 59', 'address.city': 'MALAGA', 'address.zip': '29001' });
  });

  it('keeps a family name placed by its row free of field 1 read as a letter in its own, smaller box (N beside MILLER)', () => {
    const lines = [ln(317, 352, 334, 366, 'N', 0.7), ln(323, 341, 479, 375, ' MILLER'), ln(306, 394, 577, 418, ' 2 MICHAEL JESSICA'), ln(308, 438, 568, 462, '8 127 MARVON AVE '), ln(330, 477, 575, 501, 'AUSTIN, TX, 78701')];
    expect(fields(lines, 'USA')).toMatchObject({ 'person.surname': 'MILLER', 'person.given_names': 'MICHAEL JESSICA' });
  });
});

describe('a field number glued to the date before it', () => {
  it('reads 4b run into the issue date of the same row (4a DELIVRANCE 2021-10-024b EXPIRATION2 2031-08-04) as the expiry', () => {
    // As the detector and recogniser gave a generated Quebec front: one box for the row, the space before 4b lost.
    const lines = [ln(310, 380, 700, 405, '3 DATE DE NAISSANCE 1984-05-26'), ln(310, 425, 1000, 450, '4a DELIVRANCE 2021-10-024b EXPIRATION2 2031-08-04')];
    expect(fields(lines, 'CAN')).toMatchObject({ 'person.date_of_birth': '1984-05-26', 'document.expiration_date': '2031-08-04' });
    const eu = [ln(100, 300, 600, 325, '4a. 01.02.20204b. 31.01.2030')];
    expect(fields(eu, 'DEU')).toMatchObject({ 'document.expiration_date': '2030-01-31' });
  });
});

describe('dates whose spaces OCR dropped', () => {
  it('reads a French card date with the space between day and month, or month and year, lost (1502 2035, 17 101994)', () => {
    const lines = [
      ln(669, 261, 879, 275, 'DATE DE NAISS. / Date of birth'), ln(668, 283, 789, 303, '17 101994'),
      ln(667, 331, 862, 350, "DATE D'EXPIR./ Expiry date"), ln(667, 355, 789, 376, '1502 2035'),
    ];
    expect(fields(lines, 'FRA')).toMatchObject({ 'person.date_of_birth': '1994-10-17', 'document.expiration_date': '2035-02-15' });
  });
});

describe('an address whose field number or label was lost, placed by its row', () => {
  const address = (lines: VizLine[], country: string) => readFront(lines, country).filter((r) => r.field.startsWith('address.'));

  it('reads the UK row right under field 5 as field 8, as a guess (64ACACIAAVENUE… under 5.JONES…)', () => {
    const lines = [ln(329, 416, 617, 448, '5.JONES706141SG9DH 33'), ln(326, 470, 715, 502, '64ACACIAAVENUE,LONDON,SW1A2AA'), ln(322, 611, 421, 636, '9.AM/B1/B')];
    expect(address(lines, 'GBR').map((r) => [r.field, r.value, r.guess])).toEqual([
      ['address.street', '64 ACACIAAVENUE', true],
      ['address.city', 'LONDON', true],
      ['address.zip', 'SW1A 2AA', true],
    ]);
    // Field 9 under field 5 (no address printed): nothing.
    expect(address([ln(329, 416, 617, 448, '5.JONES706141SG9DH 33'), ln(322, 470, 421, 495, '9.AM/B1/B')], 'GBR')).toEqual([]);
  });

  it('reads the US rows right under the given names as the address when field 8 was read as punctuation (： 138 OAK AVENUE), as a guess', () => {
    const lines = [ln(315, 278, 431, 305, '1 ALLEN'), ln(315, 319, 561, 344, ' 2 ASHLEY DANIEL'), ln(316, 372, 575, 396, '： 138 OAK AVENUE'), ln(345, 409, 687, 432, 'SACRAMENTO, CA 95814'), ln(313, 468, 406, 499, '15 SEX F')];
    expect(address(lines, 'USA').map((r) => [r.field, r.value, r.guess])).toEqual([
      ['address.street', '138 OAK AVENUE', true],
      ['address.city', 'SACRAMENTO', true],
      ['address.state', 'CA', true],
      ['address.zip', '95814', true],
    ]);
  });
});
