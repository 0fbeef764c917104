import { join } from 'node:path';
import { type Canvas, GlobalFonts, type Image, type SKRSContext2D, createCanvas, loadImage } from '@napi-rs/canvas';
import bwipjs from 'bwip-js/node';
import sharp from 'sharp';
import { type Identity, type Rng, US_STATES, aamva, int, pick, td1, td3 } from './identity';

/**
 * OCR-B, the font of machine-readable zones, committed beside this file (public domain and permissive
 * licences: fonts/OCRB.LICENSE.txt) so that every machine prints the same MRZ: a system font in its
 * place (DejaVu Sans Mono) is misread by the extractor, and tests, benches and the README
 * walk-through would then depend on whether Debian's fonts-ocr-b happens to be installed.
 */
export const OCRB_PATH = join(__dirname, 'fonts', 'OCRB.otf');
/**
 * The type faces sample documents print their text in, each from an npm package (devDependencies) under
 * a name of its own ("Sample …"), registered on first use: a machine without Debian's fonts (a
 * newcomer's) prints the same pixels as CI, where Chromium's packages bring fonts-dejavu-core and
 * fonts-liberation, instead of a fallback. DejaVu from dejavu-fonts-ttf (the same 2.37 files as
 * Debian's); Arimo and Tinos are the designs Liberation Sans and Liberation Serif 2 are made from.
 */
const PRINT_FACES = {
  'DejaVu Sans': ['dejavu-fonts-ttf/ttf/DejaVuSans.ttf', 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'],
  'DejaVu Sans Condensed': ['dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf', 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf'],
  'DejaVu Serif': ['dejavu-fonts-ttf/ttf/DejaVuSerif.ttf', 'dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf'],
  Arimo: ['@fontsource/arimo/files/arimo-latin-400-normal.woff2', '@fontsource/arimo/files/arimo-latin-700-normal.woff2'],
  Tinos: ['@fontsource/tinos/files/tinos-latin-400-normal.woff2', '@fontsource/tinos/files/tinos-latin-700-normal.woff2'],
} as const;
export type PrintFace = keyof typeof PRINT_FACES;
const printed = new Set<PrintFace>();
/** The family name text in `face` is drawn with (regular and bold), registered on first use; a missing file is an error, never a silent fallback. */
export function printFamily(face: PrintFace): string {
  const family = `Sample ${face}`;
  if (!printed.has(face)) {
    for (const file of PRINT_FACES[face]) {
      const path = require.resolve(file);
      if (GlobalFonts.registerFromPath(path, family) === null) throw new Error(`cannot load the font ${path}`);
    }
    printed.add(face);
  }
  return family;
}
/** The passports', cards' and licences' text font: DejaVu Sans from the npm package. */
export const TEXT_FONT = 'Sample DejaVu Sans';
let fonts: { mrz: string; text: string } | undefined;
function fontFamilies(): { mrz: string; text: string } {
  if (fonts) return fonts;
  if (GlobalFonts.registerFromPath(OCRB_PATH, 'OCR-B') === null) throw new Error(`cannot load the OCR-B font ${OCRB_PATH}`);
  fonts = { mrz: 'OCR-B', text: printFamily('DejaVu Sans') };
  return fonts;
}

/** The font family MRZ lines are printed in (for tests: always OCR-B, never a fallback). */
export const mrzFontFamily = (): string => fontFamilies().mrz;

/**
 * Fonts an MRZ may be printed in. OCR-B is what ICAO 9303 prescribes; the others are the monospace fonts
 * a document printed without it shows (issue 31): DejaVu Sans Mono (what a machine without OCR-B falls
 * back to), Cousine (metrics twin of Liberation Mono) and Courier Prime (a Courier). They come from npm
 * packages (devDependencies), never from the system, so that every machine prints the same pixels.
 */
export const MRZ_FONTS = ['ocr-b', 'dejavu-sans-mono', 'cousine', 'courier-prime'] as const;
export type MrzFont = (typeof MRZ_FONTS)[number];
const MRZ_FONT_FILES: Record<Exclude<MrzFont, 'ocr-b'>, string> = {
  'dejavu-sans-mono': 'dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf',
  cousine: '@fontsource/cousine/files/cousine-latin-400-normal.woff2',
  'courier-prime': '@fontsource/courier-prime/files/courier-prime-latin-400-normal.woff2',
};
const registered = new Set<MrzFont>();

/** The family name `font` is drawn with, registered with the canvas on first use (a missing file is an error, never a silent fallback). */
export function mrzFamily(font: MrzFont): string {
  if (font === 'ocr-b') return fontFamilies().mrz;
  const family = `MRZ ${font}`;
  if (!registered.has(font)) {
    const path = require.resolve(MRZ_FONT_FILES[font]);
    if (GlobalFonts.registerFromPath(path, family) === null) throw new Error(`cannot load the MRZ font ${path}`);
    registered.add(font);
  }
  return family;
}

/** How a document is printed: the MRZ's font (OCR-B unless said otherwise). */
export interface PrintStyle {
  mrzFont?: MrzFont;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
/** 1974-08-12 → "12 AUG 1974", the way passports print dates. */
export const printedDate = (iso: string): string => `${iso.slice(8, 10)} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;
const usDate = (iso: string): string => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

function text(ctx: SKRSContext2D, value: string, x: number, y: number, size: number, options: { bold?: boolean; color?: string } = {}): void {
  ctx.font = `${options.bold ? 'bold ' : ''}${size}px "${fontFamilies().text}"`;
  ctx.fillStyle = options.color ?? '#111';
  ctx.fillText(value, x, y);
}

function field(ctx: SKRSContext2D, label: string, value: string, x: number, y: number, size = 26): void {
  text(ctx, label, x, y, Math.round(size * 0.55), { color: '#3a4a6a' });
  text(ctx, value, x, y + size + 4, size, { bold: true });
}

/** Security-print background: a tint and fine wavy lines, as on real data pages. */
function guilloche(ctx: SKRSContext2D, w: number, h: number, rng: Rng, tint: string): void {
  ctx.fillStyle = tint;
  ctx.fillRect(0, 0, w, h);
  ctx.strokeStyle = 'rgba(90,120,160,0.18)';
  ctx.lineWidth = 1;
  const phase = rng() * 10;
  for (let k = 0; k < 28; k++) {
    ctx.beginPath();
    for (let x = 0; x <= w; x += 8) {
      const y = (k * h) / 28 + 14 * Math.sin(x / 55 + k * 0.7 + phase);
      if (x === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
}

async function portrait(ctx: SKRSContext2D, x: number, y: number, w: number, h: number, face: Buffer | undefined): Promise<void> {
  ctx.fillStyle = '#c9ced6';
  ctx.fillRect(x, y, w, h);
  if (face) {
    const img: Image = await loadImage(face);
    const scale = Math.max(w / img.width, h / img.height);
    const sw = w / scale;
    const sh = h / scale;
    ctx.drawImage(img, (img.width - sw) / 2, (img.height - sh) / 2, sw, sh, x, y, w, h);
    return;
  }
  ctx.fillStyle = '#8a93a3';
  ctx.beginPath();
  ctx.arc(x + w / 2, y + h * 0.38, w * 0.22, 0, Math.PI * 2);
  ctx.fill();
  ctx.beginPath();
  ctx.ellipse(x + w / 2, y + h, w * 0.42, h * 0.35, 0, Math.PI, 0);
  ctx.fill();
}

/** Printed fields that differ from the MRZ's on a tampered document. */
export type Printed = Partial<Pick<Identity, 'surname' | 'givenNames' | 'dateOfBirth'>>;

/** Draws machine-readable-zone lines in `font`, sized so each line fills `width`. */
function mrz(ctx: SKRSContext2D, lines: string[], x: number, y: number, width: number, lineHeight: number, font: MrzFont = 'ocr-b'): void {
  const family = mrzFamily(font);
  ctx.font = `100px "${family}"`;
  const size = Math.floor((100 * width) / ctx.measureText('<'.repeat(lines[0]?.length ?? 44)).width);
  ctx.font = `${size}px "${family}"`;
  ctx.fillStyle = '#000';
  lines.forEach((line, i) => ctx.fillText(line, x, y + i * lineHeight));
}

/**
 * A passport data page. `printed` changes what the visual zone prints (a tampered page: another
 * surname or date of birth over a genuine MRZ); the MRZ is always `p`'s, printed in `style.mrzFont`.
 */
export async function renderPassport(holder: Identity, rng: Rng, face?: Buffer, printed: Printed = {}, style: PrintStyle = {}): Promise<Canvas> {
  const p = { ...holder, ...printed };
  const canvas = createCanvas(1250, 880);
  const ctx = canvas.getContext('2d');
  guilloche(ctx, 1250, 880, rng, '#eef1ea');
  text(ctx, 'PASSPORT  /  PASSEPORT  /  PASAPORTE', 40, 60, 30, { bold: true, color: '#22335a' });
  await portrait(ctx, 40, 110, 300, 390, face);
  field(ctx, 'Type / Type', 'P', 380, 120);
  field(ctx, 'Code / Code', p.nationality, 560, 120);
  field(ctx, 'Passport No. / No. du passeport', p.documentNumber, 800, 120);
  field(ctx, 'Surname / Nom', p.surname, 380, 195);
  field(ctx, 'Given names / Prénoms', p.givenNames, 380, 270);
  field(ctx, 'Nationality / Nationalité', p.nationality, 380, 345);
  field(ctx, 'Date of birth / Date de naissance', printedDate(p.dateOfBirth), 380, 420);
  field(ctx, 'Sex / Sexe', p.sex, 900, 420);
  field(ctx, 'Date of issue / Date de délivrance', printedDate(p.issueDate), 380, 495);
  field(ctx, 'Date of expiry / Date d’expiration', printedDate(p.expirationDate), 800, 495);
  field(ctx, 'Authority / Autorité', `${p.nationality} PASSPORT OFFICE`, 380, 570);
  ctx.fillStyle = '#fbfcf8';
  ctx.fillRect(0, 680, 1250, 200);
  mrz(ctx, td3(holder), 50, 750, 1150, 80, style.mrzFont);
  return canvas;
}

export async function renderIdCardFront(p: Identity, rng: Rng, face?: Buffer): Promise<Canvas> {
  const canvas = createCanvas(1011, 638);
  const ctx = canvas.getContext('2d');
  guilloche(ctx, 1011, 638, rng, '#eaf0f4');
  text(ctx, 'IDENTITY CARD / CARTE D’IDENTITÉ', 30, 55, 28, { bold: true, color: '#22335a' });
  await portrait(ctx, 30, 90, 260, 340, face);
  field(ctx, 'Surname', p.surname, 320, 100, 24);
  field(ctx, 'Given names', p.givenNames, 320, 170, 24);
  field(ctx, 'Date of birth', printedDate(p.dateOfBirth), 320, 240, 24);
  field(ctx, 'Sex', p.sex, 640, 240, 24);
  field(ctx, 'Nationality', p.nationality, 320, 310, 24);
  field(ctx, 'Document No.', p.documentNumber, 320, 380, 24);
  field(ctx, 'Date of expiry', printedDate(p.expirationDate), 640, 380, 24);
  return canvas;
}

/** A TD1 card's back: address, date of issue and the MRZ, printed in `style.mrzFont`. */
export async function renderIdCardBack(p: Identity, rng: Rng, style: PrintStyle = {}): Promise<Canvas> {
  const canvas = createCanvas(1011, 638);
  const ctx = canvas.getContext('2d');
  guilloche(ctx, 1011, 638, rng, '#eaf0f4');
  field(ctx, 'Address', `${p.street}, ${p.place.zip} ${p.place.city}`, 30, 60, 22);
  field(ctx, 'Date of issue', printedDate(p.issueDate), 30, 140, 22);
  ctx.fillStyle = '#fbfcf8';
  ctx.fillRect(0, 380, 1011, 258);
  mrz(ctx, td1(p), 40, 450, 930, 72, style.mrzFont);
  return canvas;
}

export async function renderLicenceFront(p: Identity, rng: Rng, face?: Buffer): Promise<Canvas> {
  const canvas = createCanvas(1011, 638);
  const ctx = canvas.getContext('2d');
  guilloche(ctx, 1011, 638, rng, '#f2efe6');
  const state = US_STATES[p.place.state]?.name ?? p.place.state;
  text(ctx, `${state}  DRIVER LICENSE`, 30, 55, 32, { bold: true, color: '#5a2222' });
  await portrait(ctx, 30, 90, 250, 330, face);
  field(ctx, 'DL', p.documentNumber, 310, 95, 26);
  field(ctx, 'EXP', usDate(p.expirationDate), 640, 95, 26);
  field(ctx, 'LN', p.surname, 310, 165, 26);
  field(ctx, 'FN', p.givenNames, 310, 235, 26);
  field(ctx, 'ADDRESS', p.street, 310, 305, 22);
  text(ctx, `${p.place.city}, ${p.place.state} ${p.place.zip}`, 310, 365, 22, { bold: true });
  field(ctx, 'DOB', usDate(p.dateOfBirth), 310, 385, 26);
  field(ctx, 'SEX', p.sex, 640, 385, 26);
  field(ctx, 'ISS', usDate(p.issueDate), 310, 455, 22);
  return canvas;
}

/**
 * The back of a licence: `barcodeText` (by default the version-08 AAMVA text of `p`) as a PDF417
 * barcode of `columns` data columns across the same width (more columns, narrower modules).
 */
export async function renderLicenceBack(p: Identity, rng: Rng, barcodeText = aamva(p), columns = 10): Promise<Canvas> {
  const canvas = createCanvas(1011, 638);
  const ctx = canvas.getContext('2d');
  guilloche(ctx, 1011, 638, rng, '#f2efe6');
  text(ctx, 'ENDORSEMENTS: NONE   RESTRICTIONS: NONE', 30, 50, 20);
  // columns and rowmult are PDF417 options of BWIPP, passed through by bwip-js (not in its option types).
  const options = { bcid: 'pdf417', text: barcodeText, columns, rowmult: 5, scale: 3, paddingwidth: 8, paddingheight: 8, backgroundcolor: 'FFFFFF' };
  const png: Buffer = await bwipjs.toBuffer(options as Parameters<typeof bwipjs.toBuffer>[0]);
  const img = await loadImage(png);
  const w = 940;
  const h = Math.min(480, (img.height * w) / img.width);
  ctx.drawImage(img, 35, 90, w, h);
  return canvas;
}

const COMPANIES = {
  utility: ['NORTHWIND ENERGY', 'CITYWATER UTILITIES', 'BRIGHTLINE POWER & GAS'],
  bank: ['FIRST HARBOR BANK', 'MERIDIAN SAVINGS', 'ALPINE CREDIT UNION'],
};

export interface BillLines {
  company: string;
  title: string;
  name: string;
  street: string;
  cityLine: string;
  account: string;
  /** YYYY-MM-DD */
  date: string;
}

export function billLines(p: Identity, rng: Rng, kind: 'utility' | 'bank', date: string): BillLines {
  const cityLine = p.place.country === 'USA' ? `${p.place.city}, ${p.place.state} ${p.place.zip}` : p.place.country === 'GBR' ? `${p.place.city} ${p.place.zip}` : `${p.place.zip} ${p.place.city}`;
  return {
    company: pick(rng, COMPANIES[kind]),
    title: kind === 'utility' ? 'ELECTRICITY BILL' : 'ACCOUNT STATEMENT',
    name: `${p.givenNames} ${p.surname}`,
    street: p.street,
    cityLine,
    account: String(int(rng, 10_000_000, 99_999_999)),
    date,
  };
}

export async function renderBill(b: BillLines, rng: Rng): Promise<Canvas> {
  const canvas = createCanvas(1240, 1754);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 1240, 1754);
  ctx.fillStyle = '#1d4e89';
  ctx.fillRect(0, 0, 1240, 140);
  text(ctx, b.company, 80, 90, 46, { bold: true, color: '#ffffff' });
  text(ctx, b.title, 760, 230, 34, { bold: true });
  text(ctx, `Statement date: ${printedDate(b.date)}`, 760, 280, 24);
  text(ctx, `Account number: ${b.account}`, 760, 320, 24);
  text(ctx, b.name, 100, 420, 30);
  text(ctx, b.street, 100, 462, 30);
  text(ctx, b.cityLine, 100, 504, 30);
  ctx.strokeStyle = '#999';
  ctx.beginPath();
  ctx.moveTo(80, 620);
  ctx.lineTo(1160, 620);
  ctx.stroke();
  text(ctx, 'Description', 100, 680, 26, { bold: true });
  text(ctx, 'Amount', 960, 680, 26, { bold: true });
  const items = ['Previous balance', 'Payment received - thank you', 'Standing charge', 'Usage this period', 'Taxes and fees'];
  items.forEach((item, i) => {
    text(ctx, item, 100, 740 + i * 52, 24);
    text(ctx, `${int(rng, 5, 240)}.${String(int(rng, 0, 99)).padStart(2, '0')}`, 960, 740 + i * 52, 24);
  });
  text(ctx, `Total due: ${int(rng, 40, 400)}.${String(int(rng, 0, 99)).padStart(2, '0')}`, 760, 1080, 30, { bold: true });
  text(ctx, 'Questions? Call our customer service line or visit our website.', 100, 1600, 20, { color: '#555' });
  return canvas;
}

export type Condition = 'clean' | 'scanned' | 'photographed' | 'rotated' | 'perspective' | 'low-resolution' | 'glare' | 'jpeg' | 'open-booklet' | 'filler-noise';
/** The three base conditions, run by default. */
export const CONDITIONS: readonly Condition[] = ['clean', 'scanned', 'photographed'];
/**
 * Degradations real captures show and the base conditions do not (issue 12): any rotation 0–360°,
 * strong perspective, 300–420 px wide images, a glare spot, heavy JPEG artefacts, the page photographed
 * as the lower half of an open booklet (the facing page, the fold's shadow, a slight tilt), and print
 * noise (specks and short strokes over the lower third, where an MRZ's fillers are).
 */
export const HARD_CONDITIONS: readonly Condition[] = ['rotated', 'perspective', 'low-resolution', 'glare', 'jpeg', 'open-booklet', 'filler-noise'];
export const ALL_CONDITIONS: readonly Condition[] = [...CONDITIONS, ...HARD_CONDITIONS];

function addNoise(ctx: SKRSContext2D, w: number, h: number, rng: Rng, amount: number): void {
  const img = ctx.getImageData(0, 0, w, h);
  const d = img.data;
  for (let i = 0; i < d.length; i += 4) {
    const n = (rng() - 0.5) * amount;
    d[i] = Math.max(0, Math.min(255, (d[i] as number) + n));
    d[i + 1] = Math.max(0, Math.min(255, (d[i + 1] as number) + n));
    d[i + 2] = Math.max(0, Math.min(255, (d[i + 2] as number) + n));
  }
  ctx.putImageData(img, 0, 0);
}

/**
 * Turns a rendered document into a file as it would arrive: clean (PNG), scanned (slight rotation,
 * noise, blur, JPEG) or photographed (keystone perspective, rotation, background, uneven light, JPEG).
 */
export async function degrade(doc: Canvas, condition: Condition, rng: Rng): Promise<Buffer> {
  if (condition === 'clean') return doc.toBuffer('image/png');
  if ((HARD_CONDITIONS as readonly string[]).includes(condition)) return hardDegrade(doc, condition, rng);
  const w = doc.width;
  const h = doc.height;
  if (condition === 'scanned') {
    const canvas = createCanvas(w + 40, h + 40);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#f7f7f5';
    ctx.fillRect(0, 0, w + 40, h + 40);
    ctx.translate((w + 40) / 2, (h + 40) / 2);
    ctx.rotate(((rng() - 0.5) * 3 * Math.PI) / 180);
    ctx.drawImage(doc, -w / 2, -h / 2);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    addNoise(ctx, w + 40, h + 40, rng, 40);
    return sharp(canvas.toBuffer('image/png')).blur(0.5 + rng() * 0.4).jpeg({ quality: 85 }).toBuffer();
  }
  const margin = Math.round(Math.max(w, h) * 0.12);
  const canvas = createCanvas(w + 2 * margin, h + 2 * margin);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = pick(rng, ['#5b4a3c', '#3d4b5a', '#6b6b63']);
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  // Keystone: the far edge narrower than the near one, drawn row by row.
  const slices = createCanvas(w, h);
  const sctx = slices.getContext('2d');
  const squeeze = 0.05 + rng() * 0.05;
  const topNarrow = rng() < 0.5;
  for (let y = 0; y < h; y++) {
    const t = topNarrow ? 1 - y / h : y / h;
    const rowWidth = w * (1 - squeeze * t);
    sctx.drawImage(doc, 0, y, w, 1, (w - rowWidth) / 2, y, rowWidth, 1);
  }
  ctx.translate(canvas.width / 2, canvas.height / 2);
  ctx.rotate(((rng() - 0.5) * 8 * Math.PI) / 180);
  ctx.drawImage(slices, -w / 2, -h / 2);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  const light = ctx.createRadialGradient(canvas.width * rng(), canvas.height * rng(), 50, canvas.width / 2, canvas.height / 2, Math.max(canvas.width, canvas.height));
  light.addColorStop(0, 'rgba(255,255,240,0.10)');
  light.addColorStop(1, 'rgba(0,0,0,0.35)');
  ctx.fillStyle = light;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  addNoise(ctx, canvas.width, canvas.height, rng, 24);
  return sharp(canvas.toBuffer('image/png')).blur(0.6 + rng() * 0.5).jpeg({ quality: 72 }).toBuffer();
}

/** A background colour of a desk or a hand-held capture. */
const backdrop = (rng: Rng): string => pick(rng, ['#5b4a3c', '#3d4b5a', '#6b6b63', '#d9d4c7']);

/**
 * The hard conditions: rotated (any angle 0–360°, no EXIF tag), perspective (both axes converge,
 * 12–25% of the width), low resolution (300–420 px wide), glare (a saturated light spot over a
 * fifth to a third of the document) and JPEG artefacts (quality 8–20).
 */
/** `image` turned by `angle` degrees on a square of backdrop that holds it whole. */
function turned(image: Canvas, angle: number, rng: Rng): Canvas {
  const side = Math.ceil(Math.hypot(image.width, image.height)) + 40;
  const canvas = createCanvas(side, side);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = backdrop(rng);
  ctx.fillRect(0, 0, side, side);
  ctx.translate(side / 2, side / 2);
  ctx.rotate((angle * Math.PI) / 180);
  ctx.drawImage(image, -image.width / 2, -image.height / 2);
  return canvas;
}

async function hardDegrade(doc: Canvas, condition: Condition, rng: Rng): Promise<Buffer> {
  const w = doc.width;
  const h = doc.height;
  if (condition === 'low-resolution') {
    return sharp(doc.toBuffer('image/png')).resize({ width: int(rng, 300, 420) }).jpeg({ quality: 80 }).toBuffer();
  }
  if (condition === 'jpeg') {
    return sharp(doc.toBuffer('image/png')).resize({ width: Math.round(w * 0.8) }).jpeg({ quality: int(rng, 8, 20), chromaSubsampling: '4:2:0' }).toBuffer();
  }
  if (condition === 'glare') {
    const canvas = createCanvas(w, h);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(doc, 0, 0);
    const x = w * (0.2 + rng() * 0.6);
    const y = h * (0.2 + rng() * 0.6);
    const r = w * (0.2 + rng() * 0.13);
    const spot = ctx.createRadialGradient(x, y, r * 0.1, x, y, r);
    spot.addColorStop(0, 'rgba(255,255,255,0.95)');
    spot.addColorStop(0.5, 'rgba(255,255,250,0.6)');
    spot.addColorStop(1, 'rgba(255,255,250,0)');
    ctx.fillStyle = spot;
    ctx.fillRect(0, 0, w, h);
    return sharp(canvas.toBuffer('image/png')).jpeg({ quality: 85 }).toBuffer();
  }
  if (condition === 'open-booklet') {
    // The facing page above (faint lines of print), the fold's shadow between, the whole a little tilted.
    const gutter = Math.round(h * 0.04);
    const page = createCanvas(w, 2 * h + gutter);
    const pctx = page.getContext('2d');
    pctx.fillStyle = '#f3f0e6';
    pctx.fillRect(0, 0, w, h + gutter);
    pctx.fillStyle = 'rgba(60,60,90,0.35)';
    pctx.font = `${Math.round(h * 0.045)}px "${printFamily('DejaVu Sans')}"`;
    for (let line = 1; line < 8; line++) pctx.fillText(pick(rng, ['VISAS', 'ENTRY', 'EXIT', 'OBSERVATIONS', 'AMENDMENTS']), w * (0.1 + rng() * 0.5), (h * line) / 8);
    pctx.drawImage(doc, 0, h + gutter);
    const fold = pctx.createLinearGradient(0, h - gutter * 2, 0, h + gutter * 3);
    fold.addColorStop(0, 'rgba(0,0,0,0)');
    fold.addColorStop(0.5, 'rgba(0,0,0,0.45)');
    fold.addColorStop(1, 'rgba(0,0,0,0)');
    pctx.fillStyle = fold;
    pctx.fillRect(0, h - gutter * 2, w, gutter * 5);
    const canvas = turned(page, (rng() - 0.5) * 8, rng);
    return sharp(canvas.toBuffer('image/png')).resize({ width: Math.min(canvas.width, 1600) }).jpeg({ quality: 82 }).toBuffer();
  }
  if (condition === 'filler-noise') {
    // Specks and short strokes of ink over the lower third: the kind of print noise that turns a filler into a letter.
    const canvas = createCanvas(w, h);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(doc, 0, 0);
    ctx.strokeStyle = 'rgba(20,20,20,0.8)';
    ctx.fillStyle = 'rgba(20,20,20,0.8)';
    const unit = Math.max(1, w / 600);
    for (let i = 0; i < 400; i++) {
      const x = rng() * w;
      const y = h * (0.66 + rng() * 0.34);
      if (rng() < 0.6) {
        ctx.fillRect(x, y, unit * (1 + rng()), unit * (1 + rng()));
      } else {
        ctx.lineWidth = unit;
        ctx.beginPath();
        ctx.moveTo(x, y);
        ctx.lineTo(x + (rng() - 0.5) * unit * 8, y + (rng() - 0.5) * unit * 8);
        ctx.stroke();
      }
    }
    return sharp(canvas.toBuffer('image/png')).blur(0.6).jpeg({ quality: 75 }).toBuffer();
  }
  if (condition === 'rotated') {
    return sharp(turned(doc, rng() * 360, rng).toBuffer('image/png')).jpeg({ quality: 85 }).toBuffer();
  }
  // Perspective: rows narrow towards the far edge, then columns shorten towards one side.
  const squeeze = 0.12 + rng() * 0.13;
  const rows = createCanvas(w, h);
  const rctx = rows.getContext('2d');
  for (let y = 0; y < h; y++) {
    const rowWidth = w * (1 - squeeze * (1 - y / h));
    rctx.drawImage(doc, 0, y, w, 1, (w - rowWidth) / 2, y, rowWidth, 1);
  }
  const cols = createCanvas(w, h);
  const cctx = cols.getContext('2d');
  const side = rng() < 0.5;
  for (let x = 0; x < w; x++) {
    const colHeight = h * (1 - squeeze * 0.6 * (side ? x / w : 1 - x / w));
    cctx.drawImage(rows, x, 0, 1, h, x, (h - colHeight) / 2, 1, colHeight);
  }
  const margin = Math.round(Math.max(w, h) * 0.08);
  const canvas = createCanvas(w + 2 * margin, h + 2 * margin);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = backdrop(rng);
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(cols, margin, margin);
  return sharp(canvas.toBuffer('image/png')).blur(0.5).jpeg({ quality: 80 }).toBuffer();
}
