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

/** The AAMVA fields of a licence or ID-card back from its PDF417 barcode (zxing-wasm), or undefined. */
export async function readLicence(sharp: typeof Sharp, read: ReadBarcodes, image: BarcodeImage): Promise<LicenceFields | undefined> {
  // The barcode is tried as sent, then smoothed (scanner noise), then sharpened (camera blur).
  for (const variant of ['plain', 'smooth', 'sharpen'] as const) {
    let img = sharp(await image.png(Math.min(image.width, 1600)));
    if (variant === 'smooth') img = img.median(3);
    if (variant === 'sharpen') img = img.sharpen({ sigma: 1.2 });
    const { data, info } = await img.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const results = await read({ data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, colorSpace: 'srgb' });
    for (const r of results) {
      const fields = r.isValid ? parseAamva(r.text) : undefined;
      if (fields) return fields;
    }
  }
  return undefined;
}

const LICENCE_PATHS: Record<string, string> = { dateOfBirth: 'person.date_of_birth', expirationDate: 'document.expiration_date' };

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
  // the parser found impossible or out of order are not trusted.
  const untrusted = new Set(l.untrusted.map((f) => LICENCE_PATHS[f]));
  for (const [path, value] of Object.entries(values)) {
    put(data, path, value);
    if (value) confidence[path] = untrusted.has(path) ? 0.3 : 0.99;
  }
  data.document.country_name = countryByIso3(l.country)?.name ?? '';
  data.document.identified = 'true';
}
