import { filetypeinfo } from 'magic-bytes.js';
import type Sharp from 'sharp';
import { countryByIso3 } from '../../domain/countries';
import type { ExpectedData } from '../../domain/entities';
import { type ExtractedData, emptyExtractedData } from '../../domain/rules';
import type { BlobStore } from '../../ports/blob-store';
import type { Extraction, ExtractionInput, Extractor } from '../../ports/extractor';
import { type LicenceFields, parseAamva } from './aamva';
import type { FaceEngine, LineImage, PaddleOcr, ReadBarcodes, TesseractWorker } from './engines';
import { type MrzRead, findMrzLines, readMrz } from './mrz';
import { datesIn, findDate, findValue, normalizeText } from './text-search';

/** The engines this extractor uses, each loaded on first use (engines.ts). */
export interface OfflineEngines {
  sharp: () => Promise<typeof Sharp>;
  paddle: () => Promise<PaddleOcr>;
  tesseract: () => Promise<TesseractWorker>;
  zxing: () => Promise<ReadBarcodes>;
  pdfText: (bytes: Uint8Array) => Promise<string[]>;
  faces: () => Promise<FaceEngine>;
}

/** Largest decoded image the engines accept (the API already refuses larger ones). */
const MAX_PIXELS = 40_000_000;
const DECODABLE = new Set(['jpg', 'png', 'webp']);

type Confidence = Record<string, number>;

/** Confidence of an MRZ field: its check digit and the agreement of two independent reads. */
const CHECKED_FIELDS: Record<string, string> = { documentNumber: 'documentNumberCheckDigit', dateOfBirth: 'birthDateCheckDigit', expirationDate: 'expirationDateCheckDigit' };

/**
 * Offline extraction from npm packages alone (no network, no GPU): the MRZ of passports and ID cards
 * read by PaddleOCR (tesseract.js as fallback) and validated by check digits, the AAMVA PDF417 barcode
 * of US licences read by zxing-wasm, proof-of-address pages read by OCR (or their PDF text layer) and
 * searched for the expected name and address, and selfies compared with the ID portrait by Human.
 */
export class OfflineExtractor implements Extractor {
  readonly name = 'offline';
  constructor(
    private readonly blobs: BlobStore,
    private readonly engines: OfflineEngines,
    private readonly today: () => Date = () => new Date(),
  ) {}

  async extract(input: ExtractionInput): Promise<Extraction> {
    const data = emptyExtractedData();
    const confidence: Confidence = {};
    data.document.type = input.documentType.name;
    if (input.contextType === 'SELFIE') {
      await this.selfie(input, data, confidence);
      return { data, confidence };
    }
    if (input.contextType === 'PROOF_OF_ADDRESS') {
      await this.proofOfAddress(input, data, confidence);
      return { data, confidence };
    }
    await this.photoId(input, data, confidence);
    return { data, confidence };
  }

  // ---------------------------------------------------------------- images

  private async image(key: string): Promise<PreparedImage | { kind: 'pdf'; bytes: Uint8Array } | undefined> {
    const bytes = await this.blobs.get(key);
    const kinds = filetypeinfo(bytes.subarray(0, 64)).map((k) => k.typename);
    if (kinds.includes('pdf')) return { kind: 'pdf', bytes };
    if (!kinds.some((k) => DECODABLE.has(k))) return undefined;
    const sharp = await this.engines.sharp();
    // EXIF orientation applied once; grayscale keeps OCR and barcodes indifferent to colour casts.
    const upright = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).rotate().grayscale().raw().toBuffer({ resolveWithObject: true });
    const { width, height, channels } = upright.info;
    return {
      kind: 'image',
      width,
      height,
      png: async (targetWidth, region) => {
        let img = sharp(upright.data, { raw: { width, height, channels } });
        if (region) img = img.extract(clampRegion(region, width, height));
        return img.resize({ width: Math.round(targetWidth) }).normalize().png({ compressionLevel: 0 }).toBuffer();
      },
    };
  }

  private async ocr(png: Buffer): Promise<string[]> {
    return (await (await this.engines.paddle()).detect(png)).sort((a, b) => top(a.box) - top(b.box)).map((l) => l.text);
  }

  // ---------------------------------------------------------------- photo ID

  private async photoId(input: ExtractionInput, data: ExtractedData, confidence: Confidence): Promise<void> {
    // A licence's barcode carries every field; an ID card's MRZ is on the back; a passport's on the front.
    const sides = input.back ? [input.back.key, input.front.key] : [input.front.key];
    for (const key of sides) {
      const image = await this.image(key);
      if (image?.kind !== 'image') continue;
      if (input.back && key === input.back.key) {
        const licence = await this.barcode(image);
        if (licence) return fillLicence(data, confidence, licence);
      }
      const mrz = await this.mrz(image);
      if (mrz) return this.fillMrz(data, confidence, mrz.read, mrz.agreed);
    }
    // No machine-readable zone or barcode: search the front's printed text for the expected values.
    const front = await this.image(input.front.key);
    if (front?.kind !== 'image') return;
    const lines = await this.ocr(await front.png(Math.min(1400, front.width)));
    this.fillPrinted(data, confidence, lines, input.expected, input.country);
  }

  private async barcode(image: PreparedImage): Promise<LicenceFields | undefined> {
    const sharp = await this.engines.sharp();
    const read = await this.engines.zxing();
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

  /**
   * Reads the MRZ twice: lines found on the whole page (only the MRZ-shaped ones are read), then a
   * tight crop of those lines at a larger scale. Fields are trusted when their check digit holds and
   * (for names, which have none) when both reads agree. tesseract.js is the fallback when PaddleOCR
   * finds no MRZ.
   */
  private async mrz(image: PreparedImage): Promise<{ read: MrzRead; agreed: Set<string> } | undefined> {
    const ocr = await this.engines.paddle();
    const width = Math.min(DETECTION_WIDTH, image.width);
    const shaped = (await ocr.lines(await image.png(width))).filter((l) => isMrzShaped(l.box, width)).sort((a, b) => top(a.box) - top(b.box));
    // Bottom up: the last two MRZ-shaped lines (TD3, TD2), then three (TD1).
    for (const count of [2, 3]) {
      if (shaped.length < count) break;
      const lines = (await ocr.recognize(shaped.slice(-count))).sort((a, b) => top(a.box) - top(b.box));
      const found = findMrzLines(lines.map((l) => l.text));
      const first = found && found.lines.length === count ? readMrz(found, this.today()) : undefined;
      if (!first) continue;
      const second = await this.secondRead(image, width, shaped.slice(-count));
      return { read: pickRead(first, second), agreed: agreement(first, second) };
    }
    // Nothing MRZ-shaped found at that scale: read every line at a larger one.
    const all = await ocr.detect(await image.png(Math.min(1400, image.width)));
    const retry = findMrzLines(all.sort((a, b) => top(a.box) - top(b.box)).map((l) => l.text));
    const read = retry && readMrz(retry, this.today());
    if (read) return { read, agreed: new Set() };
    const fallback = await this.tesseractMrz(image);
    return fallback ? { read: fallback, agreed: new Set() } : undefined;
  }

  /** The second, independent read: each MRZ line cut again from the full-resolution image, with a margin, and read on its own. */
  private async secondRead(image: PreparedImage, width: number, boxes: LineImage[]): Promise<MrzRead | undefined> {
    const scale = image.width / width;
    const crops = await Promise.all(
      boxes.map((b) => {
        const xs = b.box.map((p) => p[0] * scale);
        const ys = b.box.map((p) => p[1] * scale);
        const h = Math.max(...ys) - Math.min(...ys);
        const region = { left: Math.min(...xs) - h * 0.3, top: Math.min(...ys) - h * 0.2, width: Math.max(...xs) - Math.min(...xs) + h * 0.6, height: h * 1.4 };
        return image.png(Math.min(SECOND_READ_WIDTH, region.width * 1.2), region);
      }),
    );
    const found = findMrzLines(await (await this.engines.paddle()).readCrops(crops));
    return found && readMrz(found, this.today());
  }

  private async tesseractMrz(image: PreparedImage): Promise<MrzRead | undefined> {
    const worker = await this.engines.tesseract();
    await worker.setParameters({ tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<', tessedit_pageseg_mode: '6' });
    const { data } = await worker.recognize(await image.png(1400, { left: 0, top: image.height * 0.55, width: image.width, height: image.height * 0.45 }));
    const found = findMrzLines(data.text.split('\n'));
    const read = found && readMrz(found, this.today());
    return read?.valid ? read : undefined;
  }

  private fillMrz(data: ExtractedData, confidence: Confidence, read: MrzRead, agreed: Set<string>): void {
    const f = read.fields;
    const trust = (field: string): number => {
      const check = CHECKED_FIELDS[field];
      if (check && read.invalid.includes(check)) return 0.3;
      if (!check && read.suspect) return 0.5;
      if (field === 'documentNumber' && read.invalid.includes('compositeCheckDigit')) return 0.5;
      return agreed.has(field) ? 0.99 : check ? 0.9 : 0.5;
    };
    const set = (path: string, value: string, field: string) => {
      const [group, key] = path.split('.') as [keyof ExtractedData, string];
      (data[group] as Record<string, string>)[key] = value;
      if (value !== '') confidence[path] = trust(field);
    };
    data.document.identified = 'true';
    set('person.surname', f.surname, 'surname');
    set('person.given_names', f.givenNames, 'givenNames');
    set('person.full_name', [f.givenNames, f.surname].filter(Boolean).join(' '), f.surname && f.givenNames ? 'givenNames' : 'surname');
    if (!agreed.has('surname')) confidence['person.full_name'] = Math.min(confidence['person.full_name'] ?? 1, trust('surname'));
    set('person.date_of_birth', f.dateOfBirth, 'dateOfBirth');
    set('document.number', f.documentNumber, 'documentNumber');
    set('document.expiration_date', f.expirationDate, 'expirationDate');
    set('document.country_code', f.issuingState, 'issuingState');
    data.document.country_name = countryByIso3(f.issuingState)?.name ?? '';
    data.document.issuing_entity = f.issuingState;
  }

  private fillPrinted(data: ExtractedData, confidence: Confidence, lines: string[], expected: ExpectedData | null, country: string): void {
    if (!expected) return;
    const found = (path: string, value: string | undefined, score: number) => {
      if (!value) return;
      const [group, key] = path.split('.') as [keyof ExtractedData, string];
      (data[group] as Record<string, string>)[key] = value;
      confidence[path] = Math.min(0.9, score * 0.9);
    };
    const surname = findValue(lines, expected.person.last_name);
    const given = findValue(lines, expected.person.first_name);
    const number = findValue(lines, expected.documents.photo_id.number);
    const dob = findDate(lines, expected.person.date_of_birth);
    found('person.surname', surname?.text, surname?.score ?? 0);
    found('person.given_names', given?.text, given?.score ?? 0);
    if (surname && given) found('person.full_name', `${given.text} ${surname.text}`, Math.min(surname.score, given.score));
    found('document.number', number?.text.replace(/ /g, ''), number?.score ?? 0);
    if (dob) found('person.date_of_birth', expected.person.date_of_birth, dob.score);
    const today = this.today().toISOString().slice(0, 10);
    const expiry = datesIn(lines).map((d) => d.iso).filter((d) => d > today).sort().pop();
    found('document.expiration_date', expiry, 0.8);
    if (surname || given || number) {
      data.document.identified = 'true';
      data.document.country_code = country;
      data.document.country_name = countryByIso3(country)?.name ?? '';
    }
  }

  // ---------------------------------------------------------------- proof of address

  private async proofOfAddress(input: ExtractionInput, data: ExtractedData, confidence: Confidence): Promise<void> {
    const image = await this.image(input.front.key);
    if (!image) return;
    let lines: string[];
    let quality = 1;
    if (image.kind === 'pdf') {
      lines = await this.engines.pdfText(image.bytes);
    } else {
      // The name and address block sits in the upper part of a letter (the envelope window).
      lines = await this.ocr(await image.png(1000, { left: 0, top: 0, width: image.width, height: image.height * 0.45 }));
      quality = 0.95;
      if (!addressFound(lines, input.expected)) {
        lines = lines.concat(await this.ocr(await image.png(1000, { left: 0, top: image.height * 0.45, width: image.width, height: image.height * 0.55 })));
      }
    }
    fillAddress(data, confidence, lines, input.expected, input.country, quality);
  }

  // ---------------------------------------------------------------- selfie

  private async selfie(input: ExtractionInput, data: ExtractedData, confidence: Confidence): Promise<void> {
    data.document.has_selfie = 'true';
    if (!input.compareWith) return;
    const [selfie, portrait] = await Promise.all([this.largestFace(input.front.key), this.largestFace(input.compareWith.key)]);
    if (!selfie || !portrait) return;
    const engine = await this.engines.faces();
    data.document.identified = 'true';
    data.document.selfie_comparison = String(Math.round(engine.similarity(selfie, portrait) * 100));
    confidence['document.selfie_comparison'] = 0.9;
  }

  private async largestFace(key: string): Promise<number[] | undefined> {
    const bytes = await this.blobs.get(key);
    if (!filetypeinfo(bytes.subarray(0, 64)).some((k) => DECODABLE.has(k.typename))) return undefined;
    const sharp = await this.engines.sharp();
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).rotate().resize({ width: 800, withoutEnlargement: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const faces = await (await this.engines.faces()).faces({ data, width: info.width, height: info.height });
    const largest = faces.filter((f) => f.embedding.length > 0).sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
    return largest?.embedding;
  }
}

/** Width the page is scaled to for line detection, and the MRZ crop for its second read. */
const DETECTION_WIDTH = 800;
const SECOND_READ_WIDTH = 1300;

interface PreparedImage {
  kind: 'image';
  width: number;
  height: number;
  /** The upright grayscale image, optionally cropped, scaled to `width` and contrast-stretched, as PNG. */
  png: (width: number, region?: Region) => Promise<Buffer>;
}

const top = (box: [number, number][]): number => Math.min(...box.map((p) => p[1]));

/** An MRZ line is long and thin: wider than 45% of the page and over ten times as wide as it is tall. */
function isMrzShaped(box: [number, number][], pageWidth: number): boolean {
  const xs = box.map((p) => p[0]);
  const ys = box.map((p) => p[1]);
  const w = Math.max(...xs) - Math.min(...xs);
  const h = Math.max(...ys) - Math.min(...ys);
  return w > pageWidth * 0.45 && w > 10 * h;
}

interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

function clampRegion(r: Region, width: number, height: number): { left: number; top: number; width: number; height: number } {
  const left = Math.max(0, Math.min(width - 1, Math.round(r.left)));
  const top = Math.max(0, Math.min(height - 1, Math.round(r.top)));
  return { left, top, width: Math.max(1, Math.min(width - left, Math.round(r.width))), height: Math.max(1, Math.min(height - top, Math.round(r.height))) };
}

const READ_FIELDS = ['surname', 'givenNames', 'documentNumber', 'dateOfBirth', 'expirationDate', 'issuingState', 'nationality', 'sex'] as const;

/** The fields two reads agree on. */
function agreement(a: MrzRead, b: MrzRead | undefined): Set<string> {
  return new Set(b ? READ_FIELDS.filter((f) => a.fields[f] !== '' && a.fields[f] === b.fields[f]) : []);
}

/** Of two reads, the one with fewer failing check digits (the first on a tie). */
function pickRead(a: MrzRead, b: MrzRead | undefined): MrzRead {
  return b && b.invalid.length < a.invalid.length ? b : a;
}

function fillLicence(data: ExtractedData, confidence: Confidence, l: LicenceFields): void {
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
  for (const [path, value] of Object.entries(values)) {
    const [group, key] = path.split('.') as [keyof ExtractedData, string];
    (data[group] as Record<string, string>)[key] = value;
    // The barcode's error correction makes a decoded value exact.
    if (value) confidence[path] = 0.99;
  }
  data.document.country_name = countryByIso3(l.country)?.name ?? '';
  data.document.identified = 'true';
}

function addressFound(lines: string[], expected: ExpectedData | null): boolean {
  if (!expected) return false;
  const name = `${expected.person.first_name} ${expected.person.last_name}`;
  return Boolean(findValue(lines, name) && (!expected.address.street || findValue(lines, expected.address.street)));
}

const POSTAL = /\b(\d{5}(?:-\d{4})?|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|\d{4} ?[A-Z]{2}|\d{4,5})\b/;

/**
 * Proof of address: the expected name, street, city and postal code are searched in the page's
 * text; without expected data, the block above the first line with a postal code is taken.
 */
export function fillAddress(data: ExtractedData, confidence: Confidence, lines: string[], expected: ExpectedData | null, country: string, quality: number): void {
  const set = (path: string, value: string, score: number) => {
    const [group, key] = path.split('.') as [keyof ExtractedData, string];
    (data[group] as Record<string, string>)[key] = value;
    confidence[path] = Math.round(score * quality * 100) / 100;
  };
  if (expected) {
    const name = findValue(lines, `${expected.person.first_name} ${expected.person.last_name}`) ?? findValue(lines, `${expected.person.last_name} ${expected.person.first_name}`);
    if (name) set('person.full_name', name.text, name.score);
    const parts: [string, string][] = [
      ['address.street', expected.address.street],
      ['address.city', expected.address.city],
      ['address.state', expected.address.state],
      ['address.zip', expected.address.postal_code],
    ];
    for (const [path, value] of parts) {
      const hit = value ? findValue(lines, value) : undefined;
      if (hit) set(path, hit.text, hit.score);
    }
  } else {
    const at = lines.findIndex((l, i) => i >= 2 && POSTAL.test(normalizeText(l)));
    if (at >= 2) {
      set('person.full_name', normalizeText(lines[at - 2] as string), 0.6);
      set('address.street', normalizeText(lines[at - 1] as string), 0.6);
      set('address.city', normalizeText(lines[at] as string), 0.6);
    }
  }
  const a = data.address;
  if (a.street || a.city || a.zip) {
    set('address.full', [a.street, a.city, a.state, a.zip].filter(Boolean).join(' '), Math.min(...['address.street', 'address.city', 'address.zip'].map((p) => confidence[p] ?? 0.5)));
    set('address.country', country, 0.8);
  }
  data.document.identified = data.person.full_name || a.street ? 'true' : 'false';
  data.document.country_code = country;
  data.document.country_name = countryByIso3(country)?.name ?? '';
  const first = lines.find((l) => normalizeText(l).length > 3);
  if (first) data.document.issuing_entity = normalizeText(first);
}
