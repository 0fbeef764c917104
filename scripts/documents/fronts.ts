import { type Canvas, type SKRSContext2D, createCanvas } from '@napi-rs/canvas';
import { type Identity, type Rng, US_STATES, int, pick } from './identity';
import { type PrintFace, printFamily } from './render';

/**
 * Card fronts that carry no MRZ and no barcode, printed as their issuers lay them out, for reading
 * without expected data (issue 31): EU driving licences by their numbered fields (Directive
 * 2006/126/EC, annex I), the UK licence (the same numbering and the DVLA number that encodes the
 * holder's name and birth date), US licence fronts in the AAMVA card design (numbered labels, value
 * beside or under its label) and the French identity card of 2021 (bilingual labels above values).
 * Fictional identities; each front is drawn in one of a few type faces and colours chosen by the rng.
 */

// From npm packages (render.ts printFamily), never the system's: Arimo is Liberation Sans's design, DejaVu Sans Condensed a narrow face.
const FACES: readonly PrintFace[] = ['DejaVu Sans', 'Arimo', 'DejaVu Sans Condensed'];
const CARD = { width: 1011, height: 638 };

/** A card's pen: a type face for the whole card, and text drawn at a size in that face. */
interface Pen {
  ctx: SKRSContext2D;
  face: string;
  put: (value: string, x: number, y: number, size: number, style?: { bold?: boolean; color?: string }) => number;
}

function card(rng: Rng, tint: string): { canvas: Canvas; pen: Pen } {
  const canvas = createCanvas(CARD.width, CARD.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = tint;
  ctx.fillRect(0, 0, CARD.width, CARD.height);
  // Fine security-print curves in a lighter shade.
  ctx.strokeStyle = 'rgba(120,100,140,0.16)';
  ctx.lineWidth = 1.2;
  const f = 20 + rng() * 30;
  for (let k = 0; k < 22; k++) {
    ctx.beginPath();
    for (let x = 0; x <= CARD.width; x += 10) ctx.lineTo(x, (k * CARD.height) / 22 + 10 * Math.cos(x / f + k));
    ctx.stroke();
  }
  const face = printFamily(pick(rng, FACES));
  const put: Pen['put'] = (value, x, y, size, style = {}) => {
    ctx.font = `${style.bold ? 'bold ' : ''}${size}px "${face}"`;
    ctx.fillStyle = style.color ?? '#161616';
    ctx.fillText(value, x, y);
    return x + ctx.measureText(value).width;
  };
  return { canvas, pen: { ctx, face, put } };
}

/** A grey portrait silhouette (no face: these fronts are read for their text). */
function silhouette(ctx: SKRSContext2D, x: number, y: number, w: number, h: number): void {
  ctx.fillStyle = '#b9bec8';
  ctx.fillRect(x, y, w, h);
  ctx.fillStyle = '#7d8594';
  ctx.beginPath();
  ctx.ellipse(x + w / 2, y + h * 0.36, w * 0.2, h * 0.17, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.beginPath();
  ctx.ellipse(x + w / 2, y + h * 0.98, w * 0.4, h * 0.32, 0, Math.PI, 0);
  ctx.fill();
}

/** A signature-like scribble. */
function scribble(ctx: SKRSContext2D, x: number, y: number, rng: Rng): void {
  ctx.strokeStyle = '#1b2a6b';
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(x, y);
  for (let i = 1; i < 14; i++) ctx.lineTo(x + i * 14, y + (rng() - 0.5) * 26);
  ctx.stroke();
}

const dmy = (iso: string, sep: string): string => [iso.slice(8, 10), iso.slice(5, 7), iso.slice(0, 4)].join(sep);
const mdy = (iso: string): string => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

// ------------------------------------------------------------------ EU and UK licences

/** The EU licence's issuing-state sign (the letters in the flag's box), title, authority (4c) and number shape. */
export const EU_LICENCES = {
  DEU: { sign: 'D', title: 'FÜHRERSCHEIN', state: 'BUNDESREPUBLIK DEUTSCHLAND', authority: (p: Identity) => `STADT ${p.place.city}` },
  FRA: { sign: 'F', title: 'PERMIS DE CONDUIRE', state: 'RÉPUBLIQUE FRANÇAISE', authority: () => 'PRÉFECTURE' },
  ESP: { sign: 'E', title: 'PERMISO DE CONDUCCIÓN', state: 'REINO DE ESPAÑA', authority: () => 'DGT' },
  ITA: { sign: 'I', title: 'PATENTE DI GUIDA', state: 'REPUBBLICA ITALIANA', authority: () => 'MIT-UCO' },
  NLD: { sign: 'NL', title: 'RIJBEWIJS', state: 'KONINKRIJK DER NEDERLANDEN', authority: (p: Identity) => `BURG. V. ${p.place.city}` },
} as const;
export type EuLicenceCountry = keyof typeof EU_LICENCES;

/** A licence number in the issuing country's shape (field 5). */
export function euLicenceNumber(country: EuLicenceCountry, rng: Rng): string {
  const letters = 'ABCDEFGHJKLMNPRSTUVWXYZ';
  const d = (n: number) => Array.from({ length: n }, () => String(int(rng, 0, 9))).join('');
  const l = (n: number) => Array.from({ length: n }, () => pick(rng, [...letters])).join('');
  switch (country) {
    case 'DEU':
      return `${l(1)}${d(2)}${l(3)}${d(1)}${l(1)}${d(2)}`;
    case 'FRA':
      return d(12);
    case 'ESP':
      return `${d(8)}${l(1)}`;
    case 'ITA':
      return `${l(2)}${d(7)}${l(1)}`;
    case 'NLD':
      return d(10);
  }
}

/**
 * The DVLA driver number (16 characters): the surname's first five letters (padded with 9), the
 * decade digit of the birth year, the birth month (plus 50 for a woman), the day, the year's last
 * digit, the first two initials (padded with 9), a 9, and two check letters.
 */
export function dvlaNumber(p: Identity, rng: Rng): string {
  const surname = p.surname.normalize('NFD').replace(/[^A-Z]/g, '').slice(0, 5).padEnd(5, '9');
  const [y, m, d] = [p.dateOfBirth.slice(0, 4), Number(p.dateOfBirth.slice(5, 7)), p.dateOfBirth.slice(8, 10)];
  const month = String(m + (p.sex === 'F' ? 50 : 0)).padStart(2, '0');
  const initials = p.givenNames.split(' ').map((g) => g[0] ?? '').join('').slice(0, 2).padEnd(2, '9');
  const check = () => pick(rng, [...'ABCDEFGHJKLMNPRSTUVWXYZ']);
  return `${surname}${y[2]}${month}${d}${y[3]}${initials}9${check()}${check()}`;
}

/** Field number and value on one line, the Directive's way: "4a. 01.02.2020". */
function numbered(pen: Pen, label: string, value: string, x: number, y: number, size: number): number {
  const after = pen.put(`${label}.`, x, y, Math.round(size * 0.72), { color: '#3b3b5c' });
  return pen.put(value, after + size * 0.35, y, size, { bold: true });
}

/**
 * An EU (or, with `uk`, a UK) photocard licence. The address (field 8) is printed on UK cards and,
 * when `address` is set, on others (as one line, "street, code city").
 */
export function renderEuLicence(p: Identity, number: string, country: EuLicenceCountry | 'GBR', rng: Rng, address: boolean): Canvas {
  const { canvas, pen } = card(rng, pick(rng, ['#f6e3e8', '#f3dfe6', '#efe4ee']));
  const { ctx } = pen;
  // The EU flag's blue box with the issuing state's sign, the title beside it.
  ctx.fillStyle = '#1f3f9a';
  ctx.fillRect(28, 26, 86, 66);
  pen.put(country === 'GBR' ? 'UK' : EU_LICENCES[country].sign, country === 'GBR' || EU_LICENCES[country].sign.length > 1 ? 44 : 56, 80, 34, { bold: true, color: '#ffffff' });
  const title = country === 'GBR' ? 'DRIVING LICENCE' : EU_LICENCES[country].title;
  const state = country === 'GBR' ? 'UNITED KINGDOM' : EU_LICENCES[country].state;
  pen.put(title, 140, 62, 36, { bold: true, color: '#8a1538' });
  pen.put(state, 140, 94, 20, { color: '#5a3040' });
  silhouette(ctx, 34, 128, 240, 310);
  const size = 27;
  const x = 310;
  let y = 160;
  const step = 50;
  numbered(pen, '1', p.surname, x, y, size);
  numbered(pen, '2', p.givenNames, x, (y += step), size);
  const birthPlace = country === 'GBR' ? 'UNITED KINGDOM' : p.place.city;
  numbered(pen, '3', `${dmy(p.dateOfBirth, '.')} ${birthPlace}`, x, (y += step), size);
  numbered(pen, '4a', dmy(p.issueDate, '.'), x, (y += step), size - 2);
  numbered(pen, '4c', country === 'GBR' ? 'DVLA' : EU_LICENCES[country].authority(p), x + 300, y, size - 4);
  numbered(pen, '4b', dmy(p.expirationDate, '.'), x, (y += step), size - 2);
  numbered(pen, '5', country === 'GBR' ? `${number}  ${String(int(rng, 10, 99))}` : number, x, (y += step), size);
  if (address) {
    const street = `${p.street}, ${country === 'GBR' ? `${p.place.city}, ${p.place.zip}` : `${p.place.zip} ${p.place.city}`}`;
    numbered(pen, '8', street, x, (y += step), size - 5);
  }
  pen.put('7.', 34, 478, 18, { color: '#3b3b5c' });
  scribble(ctx, 60, 470, rng);
  numbered(pen, '9', pick(rng, ['AM/B1/B', 'AM/A/B/BE', 'B/BE', 'AM/A1/B/C1']), x, 600, 22);
  return canvas;
}

// ------------------------------------------------------------------ US licence fronts (AAMVA card design)

/**
 * A US licence front in the AAMVA card design: numbered fields (1 family name, 2 given names, 3 date of
 * birth, 4a issue, 4b expiry, 4d number, 8 address), either with the label beside the value ("4d DLN
 * 12345678") or printed small above it ("4b EXP" over "01/20/2028"). The number's label varies by state.
 */
export function renderUsLicenceFront(p: Identity, rng: Rng, style: 'beside' | 'above'): Canvas {
  const { canvas, pen } = card(rng, pick(rng, ['#e9eef7', '#f4f0e4', '#e6f1ee']));
  const { ctx } = pen;
  const state = US_STATES[p.place.state]?.name ?? p.place.state;
  pen.put(state, 34, 72, 50, { bold: true, color: '#233a7a' });
  pen.put('DRIVER LICENSE', 560, 70, 30, { bold: true, color: '#a3202a' });
  pen.put('USA', 920, 44, 20, { color: '#233a7a' });
  silhouette(ctx, 34, 120, 250, 330);
  const numberLabel = pick(rng, ['DLN', 'DL', 'LIC#', 'NUMBER']);
  const small = (label: string, x: number, y: number) => pen.put(label, x, y, 17, { color: '#474766' });
  const size = 28;
  if (style === 'beside') {
    const row = (label: string, value: string, x: number, y: number, color?: string) => pen.put(value, small(label, x, y) + 10, y, size, { bold: true, ...(color && { color }) });
    row(`4d ${numberLabel}`, p.documentNumber, 310, 150);
    row('9 CLASS', 'D', 760, 150);
    row('4a ISS', mdy(p.issueDate), 310, 196);
    row('4b EXP', mdy(p.expirationDate), 610, 196, '#b01818');
    row('3 DOB', mdy(p.dateOfBirth), 310, 242, '#b01818');
    row('1', p.surname, 310, 300);
    row('2', p.givenNames, 310, 340);
    row('8', p.street, 310, 392);
    pen.put(`${p.place.city}, ${p.place.state} ${p.place.zip}`, 338, 428, size, { bold: true });
    row('15 SEX', p.sex, 310, 490);
    row('16 HGT', `5-${int(rng, 1, 11)}`, 480, 490);
    row('18 EYES', pick(rng, ['BRO', 'BLU', 'GRN']), 680, 490);
  } else {
    const cell = (label: string, value: string, x: number, y: number) => {
      small(label, x, y);
      pen.put(value, x + 14, y + 32, size);
    };
    cell(`4a ISS`, mdy(p.issueDate), 320, 140);
    cell(`4d ${numberLabel}`, p.documentNumber, 640, 140);
    cell('4b EXP', mdy(p.expirationDate), 320, 210);
    cell('3 DOB', mdy(p.dateOfBirth), 640, 210);
    cell('9 CLASS', 'D', 320, 280);
    cell('12 REST', 'NONE', 480, 280);
    small('1', 300, 372);
    pen.put(p.surname, 322, 372, 40, { bold: true });
    small('2', 300, 414);
    pen.put(p.givenNames, 322, 414, size);
    small('8', 300, 458);
    pen.put(p.street, 322, 458, size);
    pen.put(`${p.place.city}, ${p.place.state}, ${p.place.zip}`, 322, 496, size);
    small('15 SEX', 300, 560);
    pen.put(p.sex, 380, 560, 24);
  }
  scribble(ctx, 40, 520, rng);
  small(`5 DD ${Array.from({ length: 16 }, () => String(int(rng, 0, 9))).join('')}`, 310, 612);
  return canvas;
}

// ------------------------------------------------------------------ Canadian licence fronts (AAMVA card design)

/** The provinces whose fronts are generated: their name, title and the language of their labels. */
const PROVINCES: Record<string, { name: string; title: string; labels: 'bilingual' | 'french' | 'english' }> = {
  ON: { name: 'ONTARIO', title: "DRIVER'S LICENCE / PERMIS DE CONDUIRE", labels: 'bilingual' },
  QC: { name: 'QUÉBEC', title: 'PERMIS DE CONDUIRE', labels: 'french' },
  NB: { name: 'NEW BRUNSWICK / NOUVEAU-BRUNSWICK', title: "DRIVER'S LICENCE / PERMIS DE CONDUIRE", labels: 'bilingual' },
  BC: { name: 'BRITISH COLUMBIA', title: "DRIVER'S LICENCE", labels: 'english' },
  AB: { name: 'ALBERTA', title: "OPERATOR'S LICENCE", labels: 'english' },
};

/** A Canadian licence number in its province's shape (Ontario's and Quebec's hyphenated, led by the surname's initial). */
export function canadianLicenceNumber(p: Identity, rng: Rng): string {
  const d = (n: number) => Array.from({ length: n }, () => String(int(rng, 0, 9))).join('');
  const initial = p.surname.normalize('NFD').replace(/[^A-Z]/g, '')[0] ?? 'X';
  switch (p.place.state) {
    case 'ON':
      return `${initial}${d(4)}-${d(5)}-${d(5)}`;
    case 'QC':
      return `${initial}${d(4)}-${d(6)}-${d(2)}`;
    case 'AB':
      return `${d(6)}-${d(3)}`;
    default:
      return d(7);
  }
}

const MON = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
/** Canadian fronts print the year first: 2031/05/01 (Ontario, New Brunswick), 2031-05-01 (Quebec), 2031-MAY-01 (British Columbia, Alberta). */
const canadianDate = (iso: string, province: string): string =>
  province === 'QC' ? iso : province === 'BC' || province === 'AB' ? `${iso.slice(0, 4)}-${MON[Number(iso.slice(5, 7)) - 1]}-${iso.slice(8, 10)}` : iso.replace(/-/g, '/');

/**
 * A Canadian licence front in the AAMVA card design, as its province prints it: Ontario's bilingual labels
 * printed small above the values ("4d NUMBER/NUMÉRO", "1,2 NAME/NOM" over "SURNAME," and the given names),
 * Quebec's French labels beside the values ("1 NOM", "4b EXPIRATION"), New Brunswick's bilingual labels
 * beside them ("3 DOB/DDN"), British Columbia's and Alberta's English ones with the name on one line
 * ("SURNAME, GIVEN NAMES"). Dates year first; the address's city line "CITY, PR A1A 1A1".
 */
export function renderCanadianLicenceFront(p: Identity, number: string, rng: Rng): Canvas {
  const { canvas, pen } = card(rng, pick(rng, ['#eef1f6', '#f3efe6', '#e8f0ea']));
  const { ctx } = pen;
  const province = p.place.state;
  const spec = PROVINCES[province] ?? (PROVINCES.ON as (typeof PROVINCES)[string]);
  pen.put(spec.name, 34, 64, spec.name.length > 20 ? 30 : 44, { bold: true, color: '#1f3a6b' });
  pen.put(spec.title, 34, 100, 22, { bold: true, color: '#8a1c24' });
  pen.put('CANADA', 900, 44, 18, { color: '#1f3a6b' });
  silhouette(ctx, 34, 130, 240, 310);
  const date = (iso: string) => canadianDate(iso, province);
  const cityLine = `${p.place.city}, ${province} ${p.place.zip}`;
  const small = (label: string, x: number, y: number) => pen.put(label, x, y, 16, { color: '#4a4a66' });
  const size = 27;
  if (spec.labels === 'bilingual' && province === 'ON') {
    const cell = (label: string, value: string, x: number, y: number) => {
      small(label, x, y);
      return pen.put(value, x, y + 31, size, { bold: true });
    };
    cell('4d NUMBER/NUMÉRO', number, 310, 140);
    cell('1,2 NAME/NOM', `${p.surname},`, 310, 205);
    pen.put(p.givenNames, 310, 272, size, { bold: true });
    cell('8 ADDRESS/ADRESSE', p.street, 310, 310);
    pen.put(cityLine, 310, 377, size, { bold: true });
    cell('3 DOB/DDN', date(p.dateOfBirth), 310, 415);
    cell('4a ISS/DÉL', date(p.issueDate), 520, 415);
    cell('4b EXP', date(p.expirationDate), 730, 415);
    cell('15 SEX/SEXE', p.sex, 310, 490);
    cell('16 HGT/HAUT', `${int(rng, 150, 195)} cm`, 470, 490);
    cell('9 CLASS/CAT', 'G', 660, 490);
    cell('12 REST/COND', 'X', 820, 490);
  } else {
    const words =
      spec.labels === 'french'
        ? { number: '4d NUMÉRO', surname: '1 NOM', given: '2 PRÉNOM', birth: '3 DATE DE NAISSANCE', issue: '4a DÉLIVRANCE', expiry: '4b EXPIRATION', address: '8 ADRESSE', sex: '15 SEXE', cls: '9 CLASSE' }
        : spec.labels === 'bilingual'
          ? { number: '4d DL NO/NO PERMIS', surname: '1 LN/NOM', given: '2 FN/PRÉNOM', birth: '3 DOB/DDN', issue: '4a ISS/DÉL', expiry: '4b EXP', address: '8 ADDRESS/ADRESSE', sex: '15 SEX/SEXE', cls: '9 CLASS/CAT' }
          : { number: '4d DL', surname: '', given: '', birth: '3 DOB', issue: '4a ISS', expiry: '4b EXP', address: '8', sex: '15 SEX', cls: '9 CLASS' };
    const row = (label: string, value: string, x: number, y: number, color?: string) => pen.put(value, (label ? small(label, x, y) : x) + 10, y, size, { bold: true, ...(color && { color }) });
    row(words.number, number, 310, 150);
    if (spec.labels === 'english') {
      // British Columbia and Alberta print the name on one line, family name first, after its field numbers.
      row('1,2', `${p.surname}, ${p.givenNames}`, 310, 205);
    } else {
      row(words.surname, p.surname, 310, 200);
      row(words.given, p.givenNames, 310, 245);
    }
    const after = row(words.address, p.street, 310, 295);
    pen.put(cityLine, after - ctx.measureText(p.street).width, 335, size, { bold: true });
    row(words.birth, date(p.dateOfBirth), 310, 390, '#a01818');
    row(words.issue, date(p.issueDate), 310, 435);
    row(words.expiry, date(p.expirationDate), 620, 435, '#a01818');
    row(words.sex, p.sex, 310, 495);
    row(words.cls, '5', 520, 495);
  }
  scribble(ctx, 40, 520, rng);
  small(`5 DD ${Array.from({ length: 12 }, () => String(int(rng, 0, 9))).join('')}`, 310, 612);
  return canvas;
}

// ------------------------------------------------------------------ French identity card (2021)

/** A French identity-card number of 2021 (nine letters and digits). */
export function frenchCardNumber(rng: Rng): string {
  const chars = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
  return Array.from({ length: 9 }, (_, i) => (i === 8 ? String(int(rng, 0, 9)) : pick(rng, [...chars]))).join('');
}

/**
 * The front of the French identity card of 2021: bilingual labels printed small above each value
 * ("NOM / Surname", "Prénoms / Given names", "DATE DE NAISS. / Date of birth"), dates as "DD MM YYYY",
 * given names separated by commas; its MRZ is on the back, so the front alone has none.
 */
export function renderFrenchIdFront(p: Identity, number: string, rng: Rng): Canvas {
  const { canvas, pen } = card(rng, pick(rng, ['#e3ecf4', '#e8eef2']));
  const { ctx } = pen;
  pen.put('RÉPUBLIQUE FRANÇAISE', 300, 52, 30, { bold: true, color: '#1d3a7a' });
  pen.put("CARTE NATIONALE D'IDENTITÉ / IDENTITY CARD", 300, 86, 20, { color: '#1d3a7a' });
  silhouette(ctx, 30, 120, 240, 310);
  const cell = (label: string, value: string, x: number, y: number, size = 26) => {
    pen.put(label, x, y, 15, { color: '#4d5a70' });
    pen.put(value, x, y + size + 4, size, { bold: true });
  };
  cell('N° DU DOCUMENT / Document No', number, 640, 128);
  cell('NOM / Surname', p.surname, 300, 128);
  cell('Prénoms / Given names', p.givenNames.split(' ').join(', '), 300, 200);
  cell('SEXE / Sex', p.sex, 300, 272, 24);
  cell('NATIONALITÉ / Nationality', 'FRA', 430, 272, 24);
  cell('DATE DE NAISS. / Date of birth', dmy(p.dateOfBirth, ' '), 660, 272, 24);
  cell('LIEU DE NAISSANCE / Place of birth', p.place.city, 300, 344, 24);
  cell("DATE D'EXPIR. / Expiry date", dmy(p.expirationDate, ' '), 660, 344, 24);
  pen.put('Signature', 300, 470, 15, { color: '#4d5a70' });
  scribble(ctx, 320, 510, rng);
  pen.put(String(int(rng, 100000, 999999)), 880, 600, 22, { bold: true });
  return canvas;
}
