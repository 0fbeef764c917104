import type Sharp from 'sharp';
import { countryByIso3 } from '../../domain/countries';
import type { ExtractedData } from '../../domain/rules';
import { type LicenceFields, parseAamva } from './aamva';
import { type Confidence, put } from './address';
import type { ReadBarcodes } from './engines';

/** What the barcode reader needs of a prepared image: its width and the upright grayscale page as PNG at a given width. */
export interface BarcodeImage {
  width: number;
  png: (width: number) => Promise<Buffer>;
}

/** Largest width the page is read at: PDF417 modules of a licence back stay 2 pixels or wider. */
const READ_WIDTH = 1600;
/**
 * Pages narrower than this are read enlarged twice: a symbol of barely more than a pixel per module
 * is not found as sent, and is once interpolated (16 of 16 low-resolution backs of the AAMVA bench
 * set against 6 of 16 as sent).
 */
const ENLARGE_BELOW = 800;
/** Width the tilt is measured at: enough edges for a stable angle, a few tens of milliseconds of work. */
const TILT_WIDTH = 600;
/**
 * zxing-cpp's PDF417 detector reads symbols tilted by about 4° at most (measured with bwip-js symbols
 * turned by sharp); past this the page is levelled first. Below it, levelling would only resample.
 */
const MAX_TILT_READ = 1.5;

/** The AAMVA fields of a licence or ID-card back from its PDF417 barcode, or undefined. */
export const readLicence = (sharp: typeof Sharp, read: ReadBarcodes, image: BarcodeImage): Promise<LicenceFields | undefined> => readPdf417(sharp, read, image, parseAamva);

/**
 * The first PDF417 symbol (zxing-wasm) whose text `accept` takes, as `accept` returns it; undefined
 * when none is. Small pages are enlarged; zxing tries the quarter turns itself (tryRotate); a page
 * tilted by more than it tolerates is levelled by its measured tilt first, the page as sent being the
 * fallback.
 */
export async function readPdf417<T>(sharp: typeof Sharp, read: ReadBarcodes, image: BarcodeImage, accept: (text: string) => T | undefined): Promise<T | undefined> {
  const page = await image.png(Math.min(READ_WIDTH, image.width < ENLARGE_BELOW ? image.width * 2 : image.width));
  const angle = await levelAngle(sharp, page);
  const level = angle === undefined ? undefined : await turn(sharp, page, -angle);
  // Tried as sent (or levelled), then smoothed (scanner noise), then sharpened (camera blur).
  const attempts: [Buffer, 'plain' | 'smooth' | 'sharpen'][] = level
    ? [[level, 'plain'], [page, 'plain'], [level, 'smooth'], [level, 'sharpen']]
    : [[page, 'plain'], [page, 'smooth'], [page, 'sharpen']];
  for (const [png, variant] of attempts) {
    let img = sharp(png);
    if (variant === 'smooth') img = img.median(3);
    if (variant === 'sharpen') img = img.sharpen({ sigma: 1.2 });
    const { data, info } = await img.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const results = await read({ data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, colorSpace: 'srgb' });
    for (const r of results) {
      const accepted = r.isValid ? accept(r.text) : undefined;
      if (accepted !== undefined) return accepted;
    }
  }
  return undefined;
}

const turn = (sharp: typeof Sharp, png: Buffer, angle: number): Promise<Buffer> => sharp(png).rotate(angle, { background: '#ffffff' }).png({ compressionLevel: 0 }).toBuffer();

/**
 * The angle to level the page by, or undefined when its tilt is one the decoder tolerates. tiltOf
 * falls short by about a tenth of the angle (edges nearly along the pixel grid vote for 0°), enough
 * to leave a perspective-distorted symbol unread at 9°: the rest is measured on the page levelled
 * once, in its central part (the corners the turn fills with white would vote for the first angle).
 */
export async function levelAngle(sharp: typeof Sharp, page: Buffer): Promise<number | undefined> {
  const first = await tiltOf(sharp, page);
  if (Math.abs(first) <= MAX_TILT_READ) return undefined;
  const levelled = await sharp(await turn(sharp, page, -first)).raw().toBuffer({ resolveWithObject: true });
  const { width, height } = levelled.info;
  const centre = await sharp(levelled.data, { raw: levelled.info })
    .extract({ left: Math.round(width * 0.2), top: Math.round(height * 0.2), width: Math.round(width * 0.6), height: Math.round(height * 0.6) })
    .png({ compressionLevel: 0 })
    .toBuffer();
  return first + (await tiltOf(sharp, centre));
}

/**
 * The page's tilt in degrees, within ±45°: the mean direction of its edges (Sobel), weighted by their
 * strength and taken modulo 90° (the angle is multiplied by 4 before averaging), so that the bars and
 * rows of the barcode, the card's edges and its text lines all vote for the same angle. The quarter
 * turn is left to the decoder.
 */
export async function tiltOf(sharp: typeof Sharp, png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).grayscale().resize({ width: TILT_WIDTH, withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h, channels: c } = info;
  const at = (x: number, y: number): number => data[(y * w + x) * c] as number;
  let sin = 0;
  let cos = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);
      const gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);
      const magnitude = Math.hypot(gx, gy);
      // Faint gradients are paper texture and noise: only edges vote.
      if (magnitude < 80) continue;
      const a = 4 * Math.atan2(gy, gx);
      sin += magnitude * Math.sin(a);
      cos += magnitude * Math.cos(a);
    }
  }
  return (Math.atan2(sin, cos) * 45) / Math.PI;
}

/** The extracted_data paths each of the parser's untrusted fields stands behind. */
const LICENCE_PATHS: Record<string, string[]> = {
  surname: ['person.surname', 'person.full_name'],
  givenNames: ['person.given_names', 'person.full_name'],
  dateOfBirth: ['person.date_of_birth'],
  expirationDate: ['document.expiration_date'],
};

/** Puts a licence's barcode fields into extracted_data, each trusted unless the parser said otherwise. */
export function fillLicence(data: ExtractedData, confidence: Confidence, l: LicenceFields): void {
  const values: Record<string, string> = {
    'person.surname': l.surname,
    'person.given_names': l.givenNames,
    'person.full_name': [l.givenNames, l.surname].filter(Boolean).join(' '),
    'person.date_of_birth': l.dateOfBirth,
    'document.number': l.number,
    'document.expiration_date': l.expirationDate,
    'address.street': l.street,
    'address.city': l.city,
    'address.state': l.state,
    'address.zip': l.zip,
    'address.country': l.country,
    'address.full': [l.street, l.city, l.state, l.zip].filter(Boolean).join(' '),
    'document.country_code': l.country,
    'document.issuing_entity': l.state,
  };
  // The barcode's error correction makes a decoded value exact, but not necessarily meaningful: dates
  // the parser found impossible or out of order, and names the barcode says it cut, are not trusted.
  const untrusted = new Set(l.untrusted.flatMap((f) => LICENCE_PATHS[f] ?? []));
  for (const [path, value] of Object.entries(values)) {
    put(data, path, value);
    if (value) confidence[path] = untrusted.has(path) ? 0.3 : 0.99;
  }
  data.document.country_name = countryByIso3(l.country)?.name ?? '';
  data.document.identified = 'true';
}
