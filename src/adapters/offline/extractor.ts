import type { default as Sharp, OutputInfo } from 'sharp';
import { countryByIso3 } from '../../domain/countries';
import { fileKind } from '../../domain/file-type';
import type { ExpectedData } from '../../domain/entities';
import { type ExtractedData, emptyExtractedData, foldText, type Reading } from '../../domain/rules';
import type { BlobStore } from '../../ports/blob-store';
import type { Extraction, ExtractionInput, Extractor } from '../../ports/extractor';
import type { LicenceFields } from './aamva';
import { fillLicence, readLicence } from './barcode';
import { type LineImage, type PaddleOcr, type ReadBarcodes, type TesseractWorker, tesseractLine, tesseractNumberLine } from './engines';
import type { FaceEngine, PresentationModels } from './face-engines';
import { readSelfie } from './face-selfie';
import { type CombinedRead, type MrzLines, combineReads, findMrzLines, readsAsMrz, issuingStateTrust, mrzLine, mrzNames, nameLineIndex, nameRead, UNSUPPORTED_NAME } from './mrz';
import { clampRegion, levelledSize, levelWindow, lineSquare, type Rect as Region } from './level';
import { type Normalise, normaliser, type RawImage } from './normalise';
import { addressFound, type Confidence, fillAddress, findAddressBlock, type PlacedLine, put, rows } from './address';
import { allAgree, type MrzValues, readViz, valueSized, type VizLine, type VizReading, vizDates } from './viz';
import { dateOrderOf, monthLetters } from './text-search';
import { issueDateOf } from './layouts/letter';
import { addressRows, frontChecks, readFront } from './layouts/front';
import { type Chunk, chunks, type FieldRead } from './layouts/lines';

/** The engines this extractor uses, each loaded on first use (engines.ts). */
export interface OfflineEngines {
  sharp: () => Promise<typeof Sharp>;
  paddle: () => Promise<PaddleOcr>;
  tesseract: () => Promise<TesseractWorker>;
  zxing: () => Promise<ReadBarcodes>;
  pdfText: (bytes: Uint8Array) => Promise<string[]>;
  faces: () => Promise<FaceEngine>;
  /** Human's presentation-attack models (the selfie's antispoof and liveness scores). */
  presentation?: () => Promise<PresentationModels>;
}

/** Largest decoded image the engines accept (the API already refuses larger ones). */
const MAX_PIXELS = 40_000_000;

/** Where licence and ID backs carry an AAMVA PDF417 barcode. */
const AAMVA_COUNTRIES = new Set(['USA', 'CAN']);

/** The MRZ fields each check digit protects. */
const CHECKED_FIELDS: Record<string, string> = { documentNumber: 'documentNumberCheckDigit', dateOfBirth: 'birthDateCheckDigit', expirationDate: 'expirationDateCheckDigit' };

/**
 * Offline extraction from npm packages alone (no network, no GPU): the MRZ of passports and ID cards
 * read by PaddleOCR (tesseract.js as fallback) and validated by check digits, the AAMVA PDF417 barcode
 * of US licences read by zxing-wasm, proof-of-address pages read by OCR (or their PDF text layer) and
 * searched for the expected name and address, and selfies compared with the ID portrait by the face engine the face bench chose (face-match.ts).
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
      const face = await this.selfie(input, data, confidence);
      return { data, confidence, ...(face && { face }) };
    }
    if (input.contextType === 'PROOF_OF_ADDRESS') {
      const readings = await this.proofOfAddress(input, data, confidence);
      return { data, confidence, ...(readings.length > 0 && { readings }) };
    }
    const readings = await this.photoId(input, data, confidence);
    return { data, confidence, ...(readings.length > 0 && { readings }) };
  }

  // ---------------------------------------------------------------- images

  /**
   * Each extraction's decoded images by key: a side read twice (the MRZ search, then the front's layout;
   * a back sent again as the front) is fetched and decoded once. Dropped with the input.
   */
  private readonly decoded = new WeakMap<ExtractionInput, Map<string, Promise<Decoded>>>();
  /** Each detected line's first read (placedLines), by its box: a zone read again against other MRZ values reads no line twice. */
  private readonly lineReads = new WeakMap<LineImage, PlacedCrop>();
  /** A card's front as detected for its printed zone (frontZone), by the prepared image. */
  private readonly frontLines = new WeakMap<PreparedImage, Promise<LineImage[]>>();

  private image(key: string, input: ExtractionInput): Promise<Decoded> {
    let images = this.decoded.get(input);
    if (!images) this.decoded.set(input, (images = new Map()));
    const cached = images.get(key);
    if (cached) return cached;
    const decoding = this.decode(key);
    images.set(key, decoding);
    return decoding;
  }

  private async decode(key: string): Promise<Decoded> {
    const bytes = await this.blobs.get(key);
    const kind = fileKind(bytes);
    if (kind === 'pdf') return { kind: 'pdf', bytes };
    if (!kind) return undefined;
    const sharp = await this.engines.sharp();
    // EXIF orientation applied once; grayscale keeps OCR and barcodes indifferent to colour casts.
    const upright = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).rotate().grayscale().raw().toBuffer({ resolveWithObject: true });
    return prepared(sharp, upright);
  }

  private async ocr(png: Buffer): Promise<string[]> {
    return (await (await this.engines.paddle()).detect(png)).sort((a, b) => top(a.box) - top(b.box)).map((l) => l.text);
  }

  // ---------------------------------------------------------------- photo ID

  /** Fills the fields of the machine-readable source; answers each source's readings (the printed zone beside the MRZ or barcode) for the cross-source rules. */
  private async photoId(input: ExtractionInput, data: ExtractedData, confidence: Confidence): Promise<Reading[]> {
    // A licence's barcode carries every field; an ID card's MRZ is on the back; a passport's on the front.
    // What is read is decided by what the image contains, not by the country: US passport cards and
    // Canadian documents carry MRZs, so every side is searched for an MRZ after any barcode.
    // A side sent twice (the same key as front and back) is searched once: the search gives the same answer.
    const sides = [...new Set(input.back ? [input.back.key, input.front.key] : [input.front.key])];
    const aamva = input.documentType.name === 'Driver License' || AAMVA_COUNTRIES.has(input.country);
    for (const key of sides) {
      const image = await this.image(key, input);
      if (image?.kind !== 'image') continue;
      if (input.back && key === input.back.key && aamva) {
        const licence = await this.barcode(image);
        if (licence) {
          fillLicence(data, confidence, licence);
          return [...sourceReadings(data, confidence, 'barcode'), ...(await this.frontZone(input, data))];
        }
      }
      // A licence's front: an MRZ is searched where it would be found at once (upright, at detection width);
      // the further tries (turns, larger scales, tesseract.js) come after the front's layout, and only when that
      // read identifies nobody (measured on the specimen set: no licence front gave an MRZ, and the tries were
      // 60 % of a licence front's time). An ID card's front likewise when nothing on it reads as an MRZ at
      // once (a card whose MRZ is on its back: the tries were 60 % of a French 2021 front's 5-10 s); an ID
      // card whose MRZ was found but misread goes on to the tries first, as a passport does.
      let mrz: Located | undefined;
      const licence = input.documentType.name === 'Driver License';
      if ((licence || input.documentType.name === 'ID Card') && key === input.front.key) {
        const upright = await this.mrzAt(image, Math.min(DETECTION_WIDTH, image.width));
        if (upright.read?.read.valid) mrz = upright.read;
        else if (!licence && upright.read) mrz = await this.mrz(image, upright);
        else {
          const byLayout = { data: structuredClone(data), confidence: { ...confidence } };
          await this.printedFront(input, byLayout.data, byLayout.confidence);
          const keep = (): Reading[] => {
            for (const group of Object.keys(data) as (keyof ExtractedData)[]) Object.assign(data[group], byLayout.data[group]);
            Object.assign(confidence, byLayout.confidence);
            return [];
          };
          if (byLayout.data.document.identified === 'true') return keep();
          mrz = await this.mrz(image, upright);
          if (!mrz) return keep();
        }
      } else mrz = await this.mrz(image);
      if (mrz) {
        this.fillMrz(data, confidence, mrz);
        let printed = await this.mrzViz(input, key, data, mrz);
        // Check digits held but two reads gave the names differently: a third read of the MRZ is made only
        // when the printed zone does not give both names as one of the reads did (with that support the
        // third read changes nothing reported); the zone is then read against the new values (its lines' reads kept).
        if (mrz.deferred && !printedNames(mrz, printed)) {
          const again = await mrz.deferred();
          if (again) {
            mrz = { ...again, ...(mrz.layout && { layout: mrz.layout }) };
            for (const path of MRZ_PATHS) delete confidence[path];
            this.fillMrz(data, confidence, mrz);
            printed = await this.mrzViz(input, key, data, mrz);
          }
        }
        await this.supportedNames(data, confidence, mrz, printed);
        return [...sourceReadings(data, confidence, 'mrz'), ...printed];
      }
    }
    // No machine-readable zone or barcode: the front read by its layout.
    await this.printedFront(input, data, confidence);
    return [];
  }

  // ---------------------------------------------------------------- fronts read by their layout (layouts/)

  /**
   * A front without MRZ or barcode: its lines detected and read one by one with their boxes, the fields
   * taken by their numbers and labels (layouts/front.ts), then the lines they came from read again at
   * another cut and scale. A field is trusted (FRONT_TRUSTED) only when something supports it: the
   * second read gives the same value, or a check on the card (the UK number's encoding) agrees, and
   * its dates are in a possible order; otherwise it is reported untrusted (FRONT_GUESS). Expected data
   * never adds a value: a field the layout did not place is not reported, even when the client's value
   * is printed elsewhere (a birth place is no address); a placed value equal to the client's is trusted.
   */
  private async printedFront(input: ExtractionInput, data: ExtractedData, confidence: Confidence): Promise<void> {
    const front = await this.image(input.front.key, input);
    if (front?.kind !== 'image') return;
    const ocr = await this.engines.paddle();
    // Small cards are enlarged for detection: their type is a few pixels high at their own size.
    const width = Math.max(DETECTION_WIDTH, Math.min(FRONT_WIDTH, front.width));
    const boxes = (await ocr.lines(await front.png(width))).filter(readable).slice(0, FRONT_LINES);
    const placed = await this.placedLines(front, width, boxes);
    // Without boxes to cut (an engine that only reads whole pages), the page's own lines: no second read.
    const lines = placed.length > 0 ? placed.map((p) => p.line) : (await ocr.detect(await front.png(Math.min(1400, front.width)))).map(vizLine);
    const first = readFront(lines, input.country);
    // The second read cuts differently: each row chunk the fields came from as one crop (its lines' union),
    // so that a value the detector cut in two overlapping boxes ("26.02.20" "2.2032") is read whole.
    // The rows of an address that did not parse are read again too (small, long type): what the second read alone gives is reported untrusted.
    const address = placed.length > 0 ? new Set([...first.filter((r) => r.field.startsWith('address.')).flatMap((r) => r.lines), ...addressRows(lines, input.country, first)]) : new Set<VizLine>();
    const involved = new Set([...first.flatMap((r) => r.lines), ...address]);
    const rows = placed.length > 0 ? chunks(lines).filter((c) => c.parts.some((p) => involved.has(p))) : [];
    const union = (c: VizLine): LineImage => ({ box: [[c.left, c.top], [c.right, c.top], [c.right, c.bottom], [c.left, c.bottom]], image: boxes[0]?.image ?? { width, height: width } });
    const texts = rows.length > 0 ? await ocr.readCrops(await this.lineCrops(front, width, rows.map(union), VIZ_READS[1])) : [];
    const replaced = new Set(rows.flatMap((c) => c.parts));
    const second = readFront([...lines.filter((l) => !replaced.has(l)), ...rows.map((c, i) => ({ ...c, text: texts[i] ?? '' }))], input.country);
    const checks = frontChecks(first, input.country, this.today().toISOString().slice(0, 10));
    const fold = (v: string) => foldText(v).replace(/ /g, '');
    // A row of one detected box is cut along that box (a photograph's slanted line is levelled; the union of its bounds would be taller than its type).
    const own = (c: Chunk): LineImage => (c.parts.length === 1 ? placed.find((p) => p.line === c.parts[0])?.box : undefined) ?? union(c);
    const more = await this.addressAgain(front, width, lines, rows.filter((c) => c.parts.some((p) => address.has(p))).map((c) => ({ ...c, box: own(c) })), input.country, [first, second]);
    const reported = new Map<string, { value: string; confidence: number }>();
    for (const read of first) {
      const agreed = second.some((r) => r.field === read.field && fold(r.value) === fold(read.value));
      const supported = (agreed && read.lines.every((l) => l.mean >= FRONT_MIN_MEAN)) || checks.supported.has(read.field);
      const misread = (ADDRESS_WORDS.has(read.field) && GLYPH_IN_WORD.test(read.value)) || (NAME_FIELDS.has(read.field) && GLUED_LABEL.test(foldText(read.value)));
      reported.set(read.field, { value: read.value, confidence: supported && !misread && !read.guess && !checks.implausible.has(read.field) ? FRONT_TRUSTED : FRONT_GUESS });
    }
    // A number nothing on the card checks (the UK's encodes the holder) is trusted from two reads only
    // when the other engine reads it alike too: PaddleOCR's glyph confusions (J read as 1, 0 as O) come
    // out alike in two reads of one crop.
    const number = first.find((r) => r.field === 'document.number');
    const numberEntry = reported.get('document.number');
    if (number && numberEntry?.confidence === FRONT_TRUSTED && !checks.supported.has('document.number') && placed.length > 0) {
      const line = number.lines.find((l) => fold(l.text).includes(fold(number.value))) ?? number.lines.at(-1);
      const [crop] = line ? await this.lineCrops(front, width, [union(line)], VIZ_READS[1]) : [];
      const other = crop ? await tesseractNumberLine(await this.engines.tesseract(), crop) : '';
      // O and 0 are one glyph in many card fonts, to both engines alike: a letter O among digits may be a 0.
      if (!fold(other).includes(fold(number.value)) || LETTER_O_IN_MIXED.test(number.value)) numberEntry.confidence = FRONT_GUESS;
    }
    if (more.length > 0) for (const [field, entry] of agreedAddress([first, second, ...more], fold)) reported.set(field, entry);
    // An address is read from one printed block (often one line: "160 VICTORIA ROAD, LEEDS, LS1 4AP"),
    // and both reads cut it from the same place: when one of its parts is not read alike twice, the
    // block was not read reliably, and the parts that were read alike may share its misreading
    // ("160 VICTORIARAD", "S1 4AP" beside a city read "EDS" and "LEEDS"). Its parts are trusted together or not at all.
    const parts = [...reported.keys()].filter((f) => f.startsWith('address.'));
    if (parts.some((f) => reported.get(f)?.confidence !== FRONT_TRUSTED)) for (const f of parts) (reported.get(f) as { confidence: number }).confidence = FRONT_GUESS;
    // The client's value printed where this field is: the value reported (an address part may be another read's than the first) agrees with what the client sent.
    for (const [field, entry] of reported) {
      const claimed = input.expected && expectedValue(input.expected, field);
      if (claimed && fold(claimed) === fold(entry.value) && !checks.implausible.has(field)) entry.confidence = FRONT_TRUSTED;
    }
    // What only a later read placed (the names over an address only a wider read read whole): reported untrusted.
    for (const read of [...second, ...more.flat()]) if (!reported.has(read.field)) reported.set(read.field, { value: read.value, confidence: FRONT_GUESS });
    for (const [field, { value, confidence: c }] of reported) {
      if (field === 'document.issue_date') continue;
      put(data, field, value);
      confidence[field] = c;
    }
    const surname = reported.get('person.surname');
    const given = reported.get('person.given_names');
    if (surname && given) {
      put(data, 'person.full_name', `${given.value} ${surname.value}`);
      confidence['person.full_name'] = Math.min(surname.confidence, given.confidence);
    }
    const a = data.address;
    if (a.street || a.city || a.zip) {
      put(data, 'address.full', [a.street, a.city, a.state, a.zip].filter(Boolean).join(' '));
      confidence['address.full'] = Math.min(...['address.street', 'address.city', 'address.zip'].map((f) => reported.get(f)?.confidence ?? FRONT_GUESS));
      put(data, 'address.country', input.country);
    }
    if (surname || given || reported.has('document.number')) {
      data.document.identified = 'true';
      data.document.country_code = input.country;
      data.document.country_name = countryByIso3(input.country)?.name ?? '';
    }
  }

  /**
   * An address's rows read again, stretched wider than the first two reads (ADDRESS_READS): PaddleOCR drops
   * letters of small, long type at those reads' widths ("8.138ICTRIAAD,DINBURGHH1G" for "8.138 VICTORIA ROAD,
   * EDINBURGH, EH1 9GP"; measured on the generated UK, US and Canadian fronts, a cut twice as wide gave every
   * dropped letter back). The second cut is read only when the first gives a part no earlier read gave alike.
   * Each read's fields (the front read with those rows), its rows carrying that read's recogniser mean.
   */
  private async addressAgain(front: PreparedImage, width: number, lines: VizLine[], rows: (Chunk & { box: LineImage })[], country: string, earlier: FieldRead[][]): Promise<FieldRead[][]> {
    const out: FieldRead[][] = [];
    if (rows.length === 0) return out;
    const ocr = await this.engines.paddle();
    const replaced = new Set(rows.flatMap((c) => c.parts));
    const fold = (v: string) => foldText(v).replace(/ /g, '');
    for (const cut of ADDRESS_READS) {
      const crops = await this.lineCrops(front, width, rows.map((r) => r.box), cut);
      const read = ocr.readScored ? await ocr.readScored(crops) : (await ocr.readCrops(crops)).map((text) => ({ text, mean: 0 }));
      const again = readFront([...lines.filter((l) => !replaced.has(l)), ...rows.map(({ box: _, ...c }, i) => ({ ...c, ...(read[i] ?? { text: '', mean: 0 }) }))], country);
      out.push(again);
      const before = [...earlier, ...out.slice(0, -1)];
      const parts = again.filter((r) => r.field.startsWith('address.'));
      if (parts.length > 0 && parts.every((r) => before.some((reads) => reads.some((e) => e.field === r.field && fold(e.value) === fold(r.value))))) break;
    }
    return out;
  }

  // ---------------------------------------------------------------- printed zone beside the MRZ or barcode

  /**
   * The visual zone of a document whose MRZ was read: on the MRZ's page, the lines detected above the
   * MRZ (no second detection: the MRZ search's boxes); for a card whose MRZ is on the back, the front,
   * detected. Read by printedZone.
   */
  private async mrzViz(input: ExtractionInput, key: string, data: ExtractedData, mrz: Located): Promise<Reading[]> {
    if (input.back && key === input.back.key) return this.frontZone(input, data);
    if (!mrz.layout) return [];
    const { page, width, detected } = mrz.layout;
    return this.printedZone(page, width, aboveMrz(detected, mrz.layout.mrz, mrz.read.format), data, input.country);
  }

  /** A card's or licence's front, detected and read (printedZone) against the MRZ's or barcode's values (licence labels LN, FN, DOB, EXP, DL too). */
  private async frontZone(input: ExtractionInput, data: ExtractedData): Promise<Reading[]> {
    const front = await this.image(input.front.key, input);
    if (front?.kind !== 'image') return [];
    const width = Math.min(DETECTION_WIDTH, front.width);
    let detecting = this.frontLines.get(front);
    if (!detecting) this.frontLines.set(front, (detecting = (async () => (await (await this.engines.paddle()).lines(await front.png(width))).filter(readable))()));
    return this.printedZone(front, width, await detecting, data, input.country);
  }

  /**
   * Reads a printed zone's lines, bounded: the lines in the values' type size first (valueSized), and
   * the rest (the labels) only when some value was not found agreeing with the machine-readable one;
   * VIZ_LINES lines at most in all.
   */
  private async printedZone(page: PreparedImage, width: number, boxes: LineImage[], data: ExtractedData, country: string): Promise<Reading[]> {
    const kept = boxes.slice(0, VIZ_LINES);
    const values = mrzValues(data);
    const order = dateOrderOf(country);
    // First the value-sized lines long enough for a name, a date or a number (three characters or more: not
    // a sex or a type letter) and not as wide as a title or an authority line (recognition costs by width).
    const first = valueSized(kept, (b) => boxHeight(b.box)).filter((b) => boxWidth(b.box) >= 2.5 * boxHeight(b.box) && boxWidth(b.box) <= 0.4 * width);
    let lines = await this.placedLines(page, width, first);
    let readings = readViz(lines.map((l) => l.line), values, order);
    const rest = kept.filter((b) => !first.includes(b));
    // The rest (labels, wide lines) only for the holder's identity: names, date of birth, number.
    if (!allAgree(readings, { ...values, expirationDate: '' }) && rest.length > 0) {
      lines = [...lines, ...(await this.placedLines(page, width, rest))].sort((a, b) => a.line.top - b.line.top);
      readings = readViz(lines.map((l) => l.line), values, order);
    }
    return this.confirmed(lines, readings);
  }

  /** Detected boxes read once each (at most VIZ_LINES), as placed lines with the recogniser's confidence. */
  private async placedLines(page: PreparedImage, width: number, kept: LineImage[]): Promise<PlacedCrop[]> {
    const unread = kept.filter((box) => !this.lineReads.has(box));
    if (unread.length > 0) {
      const ocr = await this.engines.paddle();
      const crops = await this.lineCrops(page, width, unread, VIZ_READS[0]);
      const read = ocr.readScored ? await ocr.readScored(crops) : (await ocr.readCrops(crops)).map((text) => ({ text, mean: 0 }));
      unread.forEach((box, i) => {
        const xs = box.box.map((p) => p[0]);
        const ys = box.box.map((p) => p[1]);
        const r = read[i] ?? { text: '', mean: 0 };
        this.lineReads.set(box, { box, page, width, line: { text: r.text, mean: r.mean, left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) } });
      });
    }
    return kept.map((box) => this.lineReads.get(box) as PlacedCrop);
  }

  /**
   * A printed value that differs from the machine-readable one is trusted only when a second read of
   * its line (another cut and scale) gives the same value; otherwise it is reported untrusted.
   */
  private async confirmed(lines: PlacedCrop[], readings: VizReading[]): Promise<Reading[]> {
    const out: Reading[] = [];
    for (const { confirm, agrees: _, ...reading } of readings) {
      const placed = confirm && lines.find((l) => l.line === confirm);
      if (placed) {
        const [again = ''] = await (await this.engines.paddle()).readCrops(await this.lineCrops(placed.page, placed.width, [placed.box], VIZ_READS[1]));
        if (!sameRead(reading, again)) reading.confidence = Math.min(reading.confidence ?? 0, 0.5);
      }
      out.push(reading);
    }
    return out;
  }

  /**
   * The MRZ names as far as something independent supports them (mrzNames): the printed zone, or another
   * engine. When the printed zone does not give them, the names line is read once more, narrow (fonts
   * other than OCR-B, whose fillers and letters PaddleOCR loses when widened), by PaddleOCR and by
   * tesseract.js.
   */
  private async supportedNames(data: ExtractedData, confidence: Confidence, mrz: Located, printed: Reading[]): Promise<void> {
    let names = mrzNames(mrz, printed);
    // The names line's own box: only when every line of the MRZ was detected as one (else the index is another line's).
    const box = mrz.layout?.mrz.length === mrz.read.lines.length ? mrz.layout.mrz[nameLineIndex(mrz.read.format)] : undefined;
    if (mrz.layout && box && (names.surname.support === 'none' || names.givenNames.support === 'none')) {
      const [crop] = await this.lineCrops(mrz.layout.page, mrz.layout.width, [box], NARROW_READ);
      if (crop) {
        const [narrow = ''] = await (await this.engines.paddle()).readCrops([crop]);
        const other = await tesseractLine(await this.engines.tesseract(), crop);
        names = mrzNames(mrz, printed, [nameRead(narrow, mrz.read, 'paddle'), nameRead(other, mrz.read, 'tesseract')]);
      }
    }
    const set = (path: string, value: string, trust: number) => {
      put(data, path, value);
      if (value === '') delete confidence[path];
      else confidence[path] = trust;
    };
    set('person.surname', names.surname.value, names.surname.confidence);
    set('person.given_names', names.givenNames.value, names.givenNames.confidence);
    set('person.full_name', [names.givenNames.value, names.surname.value].filter(Boolean).join(' '), Math.min(names.surname.confidence, names.givenNames.value ? names.givenNames.confidence : 1));
  }

  private async barcode(image: PreparedImage): Promise<LicenceFields | undefined> {
    return readLicence(await this.engines.sharp(), await this.engines.zxing(), image);
  }

  /**
   * Finds and reads the MRZ (mrzAt) on the page as it comes; when that gives no MRZ whose check digits
   * hold, the likely geometry faults are tried in turn, cheapest and likeliest first, stopping as soon as
   * check digits hold: a page turned by any angle levelled by the slant of its long lines, or turned a
   * quarter when its detected lines stand upright, a small image detected again enlarged, then the page
   * (levelled) upside down (no EXIF tag says so). Then every line is read at a larger scale, and
   * tesseract.js is the last fallback.
   */
  private async mrz(image: PreparedImage, first?: Awaited<ReturnType<OfflineExtractor['mrzAt']>>): Promise<Located | undefined> {
    const upright = first ?? (await this.mrzAt(image, Math.min(DETECTION_WIDTH, image.width)));
    if (upright.read?.read.valid) return upright.read;
    const turnedBy = (angle: number) => async () => {
      const page = await image.rotate(angle);
      return this.mrzAt(page, Math.min(DETECTION_WIDTH, page.width));
    };
    // A read with a single failing check digit is an upright, level MRZ misread in places; more failures
    // (or none read) is what a turned or slanted page gives.
    const misplaced = !upright.read || upright.read.read.invalid.length >= 2;
    // A page on which hardly any text is detected, none of it long and thin (a barcode, a photograph), is
    // not turned: turned, it shows no more text. Its page read at a larger scale stays (the detector may
    // have missed small type); tesseract.js is tried only when that read shows text (measured on the
    // specimen set: turns and tesseract.js found no MRZ on such pages, and cost up to 20 s on a barcode photograph).
    const textless = (found: { lines: number; thin: number }) => found.lines < TEXTLESS_LINES && found.thin === 0;
    const small = image.width < DETECTION_WIDTH;
    // A small page is judged enlarged (its type may be too small to detect as it comes): that try comes first.
    const enlarged = small && textless(upright) ? await this.mrzAt(image, DETECTION_WIDTH) : undefined;
    if (enlarged?.read?.read.valid) return enlarged.read;
    const blank = textless(enlarged ?? upright);
    // The turn the upright search's reads suggest is worked out only now, and only for a misplaced MRZ (triesFor uses it for no other).
    const turn = blank || !misplaced ? undefined : await upright.turn();
    const tries = blank
      ? []
      : triesFor({ misplaced, slant: upright.slant, vertical: upright.vertical, larger: small && !enlarged, ...(turn !== undefined && { turn }) }).map((t) =>
          t === 'larger' ? async () => this.mrzAt(image, DETECTION_WIDTH) : turnedBy(t),
        );
    let best: Located | undefined = better(upright.read, enlarged?.read);
    for (const attempt of tries) {
      const { read } = await attempt();
      if (read?.read.valid) return read;
      best = better(best, read);
    }
    // Nothing MRZ-shaped found, or lines that read as no MRZ (most check digits failing: text around a
    // document photographed on a printed page): every line of the page read at a larger scale.
    let pageLines = Number.POSITIVE_INFINITY;
    if (!best || best.read.invalid.length >= 3) {
      const texts = await this.ocr(await image.png(Math.min(1400, image.width)));
      pageLines = texts.length;
      const retry = findMrzLines(texts);
      best = better(best, retry && combineReads([retry], this.today()));
    }
    if (best) return best;
    return blank && pageLines < TEXTLESS_LINES ? undefined : this.tesseractMrz(image);
  }

  /**
   * Finds the MRZ lines on the page scaled to `width` for detection and reads them (mrzRun). The MRZ is
   * a run of long, thin lines of (nearly) the same width, close together: two (TD3, TD2) or three (TD1),
   * searched from the bottom of the page up. Lines too short for the strict shape (a card beside its
   * other side, a page in perspective) are taken when the strict shape finds fewer than two. Also says
   * how the page's detected lines lie: mostly upright (a page turned a quarter), their median slant in
   * degrees (clockwise), and the turn that reads a run as an MRZ when it reads as one only upside down.
   */
  private async mrzAt(image: PreparedImage, width: number): Promise<{ read?: Located; vertical: boolean; slant: number; lines: number; thin: number; turn: () => Promise<number | undefined> }> {
    const ocr = await this.engines.paddle();
    const detected = (await ocr.lines(await image.png(width))).sort((a, b) => top(a.box) - top(b.box));
    const lines = detected.length;
    // Long and thin lines in either direction (a page turned a quarter shows them standing).
    const thin = detected.filter((l) => isMrzShaped(l.box, width, 0) || isMrzShaped([l.box[1], l.box[2], l.box[3], l.box[0]] as [number, number][], width, 0)).length;
    const vertical = detected.filter((l) => boxHeight(l.box) > boxWidth(l.box)).length > detected.filter((l) => boxWidth(l.box) > boxHeight(l.box)).length;
    const slant = medianAngle(detected.filter((l) => isMrzShaped(l.box, width, 0.2)));
    // Runs of strict lines from the bottom up: the MRZ is the bottom run of a document, but a document
    // photographed on a printed page or turned upside down shows other long lines below it.
    const strictRuns = runsUp(detected.filter((l) => isMrzShaped(l.box, width, 0.45)), MAX_RUNS);
    const strict = strictRuns[0] ?? [];
    const relaxed = bottomRun(detected.filter((l) => isMrzShaped(l.box, width, 0.3)));
    // Lines too short for the strict shape (a card beside its other side, a page in perspective) are
    // taken when the strict shape finds fewer than two; a single strict line is still an MRZ line (its
    // neighbours lost in clutter or merged with text beside them) when the relaxed run gives none.
    // A single strict line is read after the relaxed run beside it: that run's lines are read as they are
    // cut, the single line's area again at a larger scale (five times the time).
    const runs = strict.length >= 2 ? strictRuns : [relaxed, strict].filter((run, i) => run.length > (i === 0 ? strict.length : 0));
    let best: Located | undefined;
    // Runs whose lines read as nothing of an MRZ (a licence's or a printed page's text), with their cuts:
    // they are not read again at a larger scale. Read turned half a circle, an MRZ in one says how the
    // page is to be turned: that read is made only when a try needs the turn (turn, below), not when the
    // MRZ is found upright or a front is read by its layout.
    const unread: { boxes: LineImage[]; crops: Buffer[] }[] = [];
    const done = (read: Located | undefined) => {
      let turn: Promise<number | undefined> | undefined;
      return { read, vertical, slant, lines, thin, turn: () => (turn ??= this.turnOf(image, width, detected, unread, vertical && !read)) };
    };
    for (const boxes of runs) {
      const crops = await this.lineCrops(image, width, boxes, READS[0]);
      const texts = await ocr.readCrops(crops);
      if (!readsAsMrz(texts)) {
        unread.push({ boxes, crops });
        continue;
      }
      const found = await this.mrzRun(image, width, boxes, boxes.length >= 2 ? texts : []);
      const read = found && { ...found, layout: { page: image, width, detected, mrz: boxes } };
      if (read?.read.valid) return done(read);
      best = better(best, read);
    }
    return done(best);
  }

  /**
   * The turn of the page that reads its MRZ upright, from the upright search's runs that read as no
   * MRZ: the first whose cut, turned half a circle, reads as an MRZ line (its cut was levelled by the
   * box's angle). A page whose lines stand (turned a quarter, either way) and gave no read: its longest
   * standing lines are read instead (quarterTurn), which says which quarter turn to try first.
   */
  private async turnOf(image: PreparedImage, width: number, detected: LineImage[], unread: { boxes: LineImage[]; crops: Buffer[] }[], standing: boolean): Promise<number | undefined> {
    const ocr = await this.engines.paddle();
    for (const { boxes, crops } of unread) {
      const turned = await ocr.readCrops(await this.turned(crops));
      const at = boxes.findIndex((_, i) => readsAsMrz([turned[i] ?? '']));
      if (at >= 0) return normalAngle(180 - angleOf((boxes[at] as LineImage).box));
    }
    return standing ? this.quarterTurn(image, width, detected) : undefined;
  }

  /**
   * The turn of a page turned a quarter: its three longest standing lines cut top to bottom, read as
   * cut and then turned half a circle; the first that reads as an MRZ line says which way the page
   * reads upright (cut top to bottom: turned back counterclockwise). Two single-line reads instead of
   * detecting and reading the page turned the wrong way first (half the time before).
   */
  private async quarterTurn(image: PreparedImage, width: number, detected: LineImage[]): Promise<number | undefined> {
    const height = Math.round((image.height * width) / image.width);
    const standing = detected
      .map((l) => ({ ...l, box: [l.box[1], l.box[2], l.box[3], l.box[0]] as [number, number][] }))
      .filter((l) => isMrzShaped(l.box, height, 0.3))
      .sort((a, b) => boxHeight(b.box) - boxHeight(a.box))
      .slice(0, 3);
    if (standing.length === 0) return undefined;
    const ocr = await this.engines.paddle();
    const crops = await this.lineCrops(image, width, standing, READS[0]);
    const upright = (await ocr.readCrops(crops)).findIndex((t) => readsAsMrz([t]));
    if (upright >= 0) return normalAngle(-angleOf((standing[upright] as LineImage).box));
    const turned = (await ocr.readCrops(await this.turned(crops))).findIndex((t) => readsAsMrz([t]));
    return turned >= 0 ? normalAngle(180 - angleOf((standing[turned] as LineImage).box)) : undefined;
  }

  /** Line crops turned half a circle. */
  private async turned(crops: Buffer[]): Promise<Buffer[]> {
    const sharp = await this.engines.sharp();
    return Promise.all(crops.map((c) => sharp(c).rotate(180).png({ compressionLevel: 0 }).toBuffer()));
  }

  /**
   * Reads the MRZ lines found two or three times: each line cut from the full-resolution image, then
   * (when those differ) the same cuts at another scale, then the MRZ area at a larger scale (left to the
   * caller as `deferred` when every check digit holds and only the names differ: photoId). The reads are
   * combined line by line and checked by their check digits (combineReads); names, which have none, are
   * trusted only when two reads agree. When the lines found are fewer than an MRZ's, the area around them
   * is detected again at a larger scale.
   */
  private async mrzRun(image: PreparedImage, width: number, boxes: LineImage[], texts: string[]): Promise<(CombinedRead & { deferred?: () => Promise<CombinedRead | undefined> }) | undefined> {
    const first = findMrzLines(texts);
    if (first && first.lines.length === boxes.length) {
      const reads = [first];
      const firstRead = combineReads(reads, this.today());
      // Check digits vouch for every line but the names: when they all hold, only the name line is read again.
      const second = firstRead?.read.valid ? await this.nameLineRead(image, width, boxes, first) : findMrzLines(await this.cropTexts(image, width, boxes, READS[1]));
      if (second) reads.push(second);
      const combined = combineReads(reads, this.today());
      if (combined?.read.valid && combined.namesAgreed) return combined;
      const third = async () => {
        const region = await this.regionRead(image, width, boxes, 1);
        return combineReads(region ? [...reads, region] : reads, this.today());
      };
      // Every check digit holds and only the names differ: the third read is left to the caller, who needs
      // it only when the printed zone does not support the names (photoId).
      return combined?.read.valid ? { ...combined, deferred: third } : third();
    }
    const around = await this.regionRead(image, width, boxes, 2.5);
    return around && combineReads([around], this.today());
  }

  /**
   * One read of the MRZ lines: each line cut from the full-resolution image, turned level by the angle
   * of its detected box, stretched sideways and read on its own.
   */
  private async cropTexts(image: PreparedImage, width: number, boxes: LineImage[], read: CropRead): Promise<string[]> {
    return (await this.engines.paddle()).readCrops(await this.lineCrops(image, width, boxes, read));
  }

  /** Each detected line cut from the full-resolution image, levelled by its box's angle and widened by `read.stretch`. */
  private async lineCrops(image: PreparedImage, width: number, boxes: LineImage[], read: CropRead): Promise<Buffer[]> {
    const toImage = fromDetection(width, Math.round((image.height * width) / image.width), image.width / width);
    const crops = await Promise.all(
      boxes.map((b) => {
        const [p0, p1, , p3] = b.box.map(toImage) as [readonly [number, number], readonly [number, number], readonly [number, number], readonly [number, number]];
        const length = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]);
        const height = Math.hypot(p3[0] - p0[0], p3[1] - p0[1]);
        const angle = (Math.atan2(p1[1] - p0[1], p1[0] - p0[0]) * 180) / Math.PI;
        return image.line(
          { centerX: (p0[0] + p1[0]) / 2 + (p3[0] - p0[0]) / 2, centerY: (p0[1] + p1[1]) / 2 + (p3[1] - p0[1]) / 2, length: length + height * 1.2, height: height * read.band, angle },
          read.stretch,
        );
      }),
    );
    return crops;
  }

  /** The second read of the name line alone, the other lines taken from the first read. */
  private async nameLineRead(image: PreparedImage, width: number, boxes: LineImage[], first: MrzLines): Promise<MrzLines | undefined> {
    const index = nameLineIndex(first.format);
    const box = boxes[index];
    if (!box) return undefined;
    const [text = ''] = await this.cropTexts(image, width, [box], READS[1]);
    const { line, suspect } = mrzLine(text, first.lines[index]?.length ?? 0);
    return { ...first, lines: first.lines.map((l, i) => (i === index ? line : l)), suspect: first.suspect || suspect };
  }

  /** The MRZ area (with `margin` line heights around the lines found) detected and read again at a larger scale than the first read. */
  private async regionRead(image: PreparedImage, width: number, boxes: LineImage[], margin: number): Promise<MrzLines | undefined> {
    const toImage = fromDetection(width, Math.round((image.height * width) / image.width), image.width / width);
    const points = boxes.flatMap((b) => b.box.map(toImage));
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const h = (Math.max(...ys) - Math.min(...ys)) / boxes.length;
    const m = h * margin;
    const region = { left: Math.min(...xs) - h, top: Math.min(...ys) - m, width: Math.max(...xs) - Math.min(...xs) + 2 * h, height: Math.max(...ys) - Math.min(...ys) + 2 * m };
    const lines = await (await this.engines.paddle()).detect(await image.png(Math.min(SECOND_READ_WIDTH, region.width), region, 1.5));
    return findMrzLines(lines.sort((a, b) => top(a.box) - top(b.box)).map((l) => l.text));
  }

  private async tesseractMrz(image: PreparedImage): Promise<CombinedRead | undefined> {
    const worker = await this.engines.tesseract();
    await worker.setParameters({ tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<', tessedit_pageseg_mode: '6', user_defined_dpi: '300' });
    const { data } = await worker.recognize(await image.png(1400, { left: 0, top: image.height * 0.55, width: image.width, height: image.height * 0.45 }));
    const found = findMrzLines(data.text.split('\n'));
    const read = found && combineReads([{ ...found, engine: 'tesseract' }], this.today());
    return read?.read.valid ? read : undefined;
  }

  private fillMrz(data: ExtractedData, confidence: Confidence, { read, numberAmbiguous }: CombinedRead): void {
    const f = read.fields;
    const trust = (field: string): number => {
      const check = CHECKED_FIELDS[field];
      if (field === 'documentNumber' && (numberAmbiguous || read.invalid.includes('compositeCheckDigit'))) return read.invalid.includes(check ?? '') ? 0.3 : 0.5;
      if (check) return read.invalid.includes(check) ? 0.3 : 0.99;
      // Names have no check digit: untrusted until something independent supports them (supportedNames).
      if (field === 'surname' || field === 'givenNames') return UNSUPPORTED_NAME;
      // Issuing state: no check digit covers it; trusted only when the nationality gives the same code.
      return issuingStateTrust(read);
    };
    const set = (path: string, value: string, field: string) => {
      put(data, path, value);
      if (value !== '') confidence[path] = trust(field);
    };
    data.document.identified = 'true';
    set('person.surname', f.surname, 'surname');
    set('person.given_names', f.givenNames, 'givenNames');
    set('person.full_name', [f.givenNames, f.surname].filter(Boolean).join(' '), 'surname');
    set('person.date_of_birth', f.dateOfBirth, 'dateOfBirth');
    set('document.number', f.documentNumber, 'documentNumber');
    set('document.expiration_date', f.expirationDate, 'expirationDate');
    set('document.country_code', f.issuingState, 'issuingState');
    data.document.country_name = countryByIso3(f.issuingState)?.name ?? '';
    data.document.issuing_entity = f.issuingState;
  }

  // ---------------------------------------------------------------- proof of address

  /** Fills the address and name; answers the issue date read (for the flow's proof-of-address age rule). */
  private async proofOfAddress(input: ExtractionInput, data: ExtractedData, confidence: Confidence): Promise<Reading[]> {
    const image = await this.image(input.front.key, input);
    if (!image) return [];
    if (image.kind === 'pdf') {
      const lines = await this.engines.pdfText(image.bytes);
      fillAddress(data, confidence, lines, input.expected, input.country, 1);
      return issueDate(lines, input.country, 'pdf_text', confidence);
    }
    const ocr = await this.engines.paddle();
    const sharp = await this.engines.sharp();
    const width = 1000;
    const scaledHeight = (image.height * width) / image.width;
    // Each detected line read on its own and kept with its box: PaddleOCR's `detect` joins the lines of
    // a row, which mixes side-by-side blocks (a bill-to beside a ship-to, an address beside a phone list).
    const read = async (from: number, to: number): Promise<PlacedLine[]> => {
      let png = await image.png(width, { left: 0, top: image.height * from, width: image.width, height: image.height * (to - from) });
      let found = await ocr.lines(png);
      // A page photographed askew is levelled first (by the median slope of its wide lines): each line is
      // cut by its upright bounding box, which on a slanted line takes in its neighbours.
      const skew = medianAngle(found.filter((l) => boxWidth(l.box) > 3 * boxHeight(l.box)));
      if (Math.abs(skew) > 1 && Math.abs(skew) < 45) {
        png = await sharp(png).rotate(-skew, { background: '#ffffff' }).png({ compressionLevel: 0 }).toBuffer();
        found = await ocr.lines(png);
      }
      const page = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      const toPage = fromDetection(page.info.width, page.info.height, 1);
      const boxes = found.map((l) => {
        const points = l.box.map(toPage);
        const xs = points.map((p) => p[0]);
        const ys = points.map((p) => p[1]);
        return clampRegion({ left: Math.min(...xs), top: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) }, page.info.width, page.info.height);
      });
      const crops = await Promise.all(boxes.map((r) => sharp(page.data, { raw: page.info }).extract(r).png({ compressionLevel: 0 }).toBuffer()));
      const texts = await ocr.readCrops(crops);
      const offset = scaledHeight * from;
      return boxes
        .map((r, i) => ({ text: texts[i] ?? '', left: r.left, top: r.top + offset, right: r.left + r.width, bottom: r.top + r.height + offset }))
        .filter((l) => l.text.trim() !== '')
        .sort((a, b) => a.top - b.top);
    };
    // The name and address block sits in the upper part of a letter (the envelope window): the lower
    // part is read only when the upper part shows neither the expected values nor an address block.
    let placed = await read(0, 0.45);
    const found = input.expected ? addressFound(rows(placed), input.expected) : findAddressBlock(placed, input.country) !== undefined;
    if (!found) placed = placed.concat(await read(0.45, 1));
    fillAddress(data, confidence, rows(placed), input.expected, input.country, 0.95, placed);
    // The statement date is searched in what was read for the address (the top of a letter, where it is
    // printed): a second OCR pass over the rest of the page only for it would cost more than it finds.
    return issueDate(rows(placed), input.country, 'ocr', confidence);
  }

  // ---------------------------------------------------------------- selfie (face-selfie.ts)

  private selfie(input: ExtractionInput, data: ExtractedData, confidence: Confidence): Promise<Extraction['face']> {
    const { sharp, faces, presentation } = this.engines;
    return readSelfie({ blobs: this.blobs, sharp, faces, presentation, maxPixels: MAX_PIXELS }, input, data, confidence);
  }
}

/** The fewer failing check digits, the better read. */
const better = <T extends CombinedRead>(a: T | undefined, b: T | undefined): T | undefined => (!a || (b && b.read.invalid.length < a.read.invalid.length) ? b : a);

/** An MRZ read with where it was found: the page (as turned to read it), its detection width, every line detected and the MRZ's own. */
type Located = CombinedRead & { layout?: { page: PreparedImage; width: number; detected: LineImage[]; mrz: LineImage[] }; deferred?: () => Promise<CombinedRead | undefined> };

/** The paths fillMrz sets a confidence on. */
const MRZ_PATHS = ['person.surname', 'person.given_names', 'person.full_name', 'person.date_of_birth', 'document.number', 'document.expiration_date', 'document.country_code'];

/** Whether the printed zone gives both MRZ names as one of the reads did (mrzNames: both supported by the printed zone). */
function printedNames(mrz: CombinedRead, printed: Reading[]): boolean {
  const names = mrzNames(mrz, printed);
  return names.surname.support === 'printed' && names.givenNames.support === 'printed';
}

/** A line of the printed zone: its detected box (to cut it again), the page and width it was detected at, and its text. */
interface PlacedCrop {
  box: LineImage;
  page: PreparedImage;
  width: number;
  line: VizLine;
}

/** A front's lines read at most (a licence prints 25–40), and the width fronts are detected at, at most (small cards are enlarged to DETECTION_WIDTH). */
const FRONT_LINES = 60;
const FRONT_WIDTH = 1200;
/** Confidence of a front's field that a second read or a check supports; of one that nothing supports (below the rules' min_confidence). */
const FRONT_TRUSTED = 0.9;
const FRONT_GUESS = 0.5;
/** Recogniser mean below which a front's line is not trusted even when read alike twice. */
const FRONT_MIN_MEAN = 0.7;

/** Address parts printed in words (a house number aside), where a digit between letters is a misread letter. */
const ADDRESS_WORDS = new Set(['address.street', 'address.city']);
/**
 * A digit between two letters of one word ("D0RPSWEG 136", "VICT0RIA"), or a house number with the letter
 * O or I after or before its digits ("1OO MAIN STREET", "1OOMAINSTREET"): the recogniser's O/0, I/1, S/5, B/8 confusion, which two
 * reads of one crop (or two wide reads) make alike. House numbers ("12A"), road numbers ("A40") and
 * ordinals ("2E") have other letters, on one side only.
 */
const GLYPH_IN_WORD = /\p{L}\d+\p{L}|\b\d+[OI]|\b[OI]+\d/u;

/**
 * A number of letters and digits with the letter O in it: both engines read a French card's 0YSU9ZRT4
 * as OYSU9ZRT4. Some issuers leave O out of their numbers' alphabets (Germany's card numbers use no vowels), so
 * an O among digits is more likely a misread 0 than a letter: reported untrusted.
 */
const LETTER_O_IN_MIXED = /^(?=.*[A-Z])(?=.*\d)(?=.*O)/;

/** The holder's name fields of a front. */
const NAME_FIELDS = new Set(['person.surname', 'person.given_names']);
/**
 * A name that begins with a name label's word run into it ("NOMLEBLANC": Quebec's NOM with its
 * separator lost), which two reads of one crop give alike. It may be a name (NOMURA): reported, untrusted.
 */
const GLUED_LABEL = /^(?:NOM|NAME|LN|FN|PRENOMS?|SURNAME|NACHNAME|VORNAMEN?|APELLIDOS?|NOMBRES?)(?=[A-Z]{3})/;

/** Cuts of an address's rows read after the first two (addressAgain): twice and three times as wide, in a tighter band. */
const ADDRESS_READS: CropRead[] = [
  { band: 1.2, stretch: 2 },
  { band: 1.4, stretch: 3 },
];

/**
 * An address's parts from its reads: the first two (`reads[0]`, `reads[1]`) and the wider ones after them
 * (addressAgain). The first two cut at the widths that drop letters, and may drop the same ones ("160
 * VICTORIARAD" twice). The value taken is, in turn: one with no misread glyph (GLYPH_IN_WORD: "VIALEDEIM1LLE",
 * "1OO MAIN"), one two reads give alike, one placed by its label, the longest (the OCR drops letters far more
 * often than it adds any), the first reads' (the wider reads confuse O and 0 more, "814OMAINSTREET" for
 * "8 140 MAIN STREET").
 * It is trusted when two reads give it, a wider read among them (unless no wider read placed that part at
 * all: then the first two alike, as without wider reads), the recogniser was sure of two of them
 * (FRONT_MIN_MEAN), no two reads agree on another value, no word of it holds a misread letter, and it
 * was placed by its label, not by its position alone (a guess).
 */
function agreedAddress(reads: FieldRead[][], fold: (v: string) => string): Map<string, { value: string; confidence: number }> {
  const out = new Map<string, { value: string; confidence: number }>();
  const sure = (f: FieldRead) => f.lines.every((l) => l.mean >= FRONT_MIN_MEAN);
  for (const field of new Set(reads.flatMap((r) => r.filter((f) => f.field.startsWith('address.')).map((f) => f.field)))) {
    const values = reads.map((r) => r.find((f) => f.field === field));
    const alike = (a: FieldRead | undefined, b: FieldRead | undefined) => a !== undefined && b !== undefined && fold(a.value) === fold(b.value);
    const group = (i: number) => values.flatMap((o, j) => (alike(o, values[i]) ? [j] : []));
    const agreed = values.map((_, i) => i).filter((i) => group(i).length >= 2);
    const length = (i: number) => fold(values[i]?.value ?? '').length;
    // Values alike are the same characters: a misread glyph in one ("1OO MAIN STREET") is in all ("1 OOMAINSTREET").
    const misread = (i: number) => Number(ADDRESS_WORDS.has(field) && group(i).some((j) => GLYPH_IN_WORD.test(values[j]?.value ?? '')));
    const placedBy = (i: number) => Number(values[i]?.guess === true);
    const single = (i: number) => Number(group(i).length < 2);
    const rank = (a: number, b: number) => misread(a) - misread(b) || single(a) - single(b) || placedBy(a) - placedBy(b) || length(b) - length(a) || a - b;
    const best = values.flatMap((v, i) => (v ? [i] : [])).sort(rank)[0];
    const chosen = best === undefined ? undefined : values[best];
    const value = chosen?.value ?? '';
    const members = best === undefined ? [] : group(best);
    const trusted =
      best !== undefined &&
      !chosen?.guess &&
      (members.some((i) => i >= 2) || values.slice(2).every((v) => v === undefined)) &&
      members.filter((i) => sure(values[i] as FieldRead)).length >= 2 &&
      agreed.every((i) => alike(values[i], chosen)) &&
      !misread(best);
    out.set(field, { value, confidence: trusted ? FRONT_TRUSTED : FRONT_GUESS });
  }
  return out;
}

/** A whole-page OCR line as a placed line. */
function vizLine(l: { text: string; mean: number; box: [number, number][] }): VizLine {
  const xs = l.box.map((p) => p[0]);
  const ys = l.box.map((p) => p[1]);
  return { text: l.text, mean: l.mean, left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
}

/** The expected value of a field a front prints, from the client's expected data. */
function expectedValue(expected: ExpectedData, field: string): string {
  return expectedFields(expected).find(([f]) => f === field)?.[1] ?? '';
}
function expectedFields(e: ExpectedData): [string, string][] {
  return [
    ['person.surname', e.person.last_name],
    ['person.given_names', e.person.first_name],
    ['person.date_of_birth', e.person.date_of_birth],
    ['document.number', e.documents.photo_id.number],
    ['address.street', e.address.street],
    ['address.city', e.address.city],
    ['address.state', e.address.state],
    ['address.zip', e.address.postal_code],
  ];
}

/** Lines of the printed zone read at most: the bound on the extra OCR a document costs (one recognition per line, no detection on the MRZ's page). */
const VIZ_LINES = 36;
/** Cuts of a printed line: the first read, and the second read a disagreement must survive. */
const VIZ_READS: [CropRead, CropRead] = [
  { band: 1.3, stretch: 1 },
  { band: 1.6, stretch: 1.4 },
];

/** A detected box big enough to hold text (at detection scale). */
const readable = (l: LineImage): boolean => boxWidth(l.box) >= 12 && boxHeight(l.box) >= 5;

/**
 * The lines of the printed zone on the MRZ's page: above the MRZ, over its width, up to the height of a
 * data page (0.85 of the MRZ's length on a passport; 1.3 on a card, whose image may show the front above
 * the back), nearest the MRZ first.
 */
function aboveMrz(detected: LineImage[], mrz: LineImage[], format: string): LineImage[] {
  const points = mrz.flatMap((b) => b.box);
  if (points.length === 0) return [];
  const xs = points.map((p) => p[0]);
  const left = Math.min(...xs);
  const right = Math.max(...xs);
  const mrzTop = Math.min(...points.map((p) => p[1]));
  const reach = (right - left) * (format === 'TD3' ? 0.85 : 1.3);
  const margin = (right - left) * 0.1;
  return detected
    .filter((l) => !mrz.includes(l) && readable(l))
    .filter((l) => {
      const ys = l.box.map((p) => p[1]);
      const cx = (Math.min(...l.box.map((p) => p[0])) + Math.max(...l.box.map((p) => p[0]))) / 2;
      return Math.max(...ys) <= mrzTop + 2 && Math.min(...ys) >= mrzTop - reach && cx >= left - margin && cx <= right + margin;
    })
    .sort((a, b) => Math.max(...b.box.map((p) => p[1])) - Math.max(...a.box.map((p) => p[1])));
}

/** The compared fields as the machine-readable source read them, with the confidence the extractor gave each. */
const SOURCE_FIELDS = ['person.surname', 'person.given_names', 'person.date_of_birth', 'document.number', 'document.expiration_date'] as const;
function sourceReadings(data: ExtractedData, confidence: Confidence, source: 'mrz' | 'barcode'): Reading[] {
  return SOURCE_FIELDS.flatMap((path) => {
    const [group, key] = path.split('.') as [keyof ExtractedData, string];
    const value = (data[group] as Record<string, string>)[key] ?? '';
    return value === '' ? [] : [{ field: path, value, source, confidence: confidence[path] ?? 0 }];
  });
}

function mrzValues(data: ExtractedData): MrzValues {
  return { surname: data.person.surname, givenNames: data.person.given_names, dateOfBirth: data.person.date_of_birth, documentNumber: data.document.number, expirationDate: data.document.expiration_date };
}

/** Whether a second read of a printed line gives the value of the first (a date by its day, month and year). */
function sameRead(reading: Reading, again: string): boolean {
  const fold = (s: string) => foldText(s).replace(/ /g, '');
  if (reading.field.endsWith('_date') || reading.field === 'person.date_of_birth') {
    const century = Number(reading.value.slice(0, 2));
    return vizDates(again, century).some((d) => d.isos.includes(reading.value)) || vizDates(again, century, 'MDY').some((d) => d.isos.includes(reading.value));
  }
  return fold(again).includes(fold(reading.value));
}

/**
 * Fewer text lines than this detected on a page, none of them long and thin (isMrzShaped at any share of
 * the width, level or standing): no MRZ to search for further. Barcode photographs of the specimen set show 0–6 lines; the
 * MRZ documents 11 or more, MRZ-shaped or upright.
 */
const TEXTLESS_LINES = 8;

/** Slant (degrees) from which a page is levelled before its MRZ is read again: line cuts are levelled one by one, but detection merges slanted lines. */
const MIN_SLANT = 4;

/** Width the page is scaled to for line detection, and the largest the MRZ area is read at. */
const DETECTION_WIDTH = 800;
/** Runs of long lines read in search of the MRZ, from the bottom of the page up. */
const MAX_RUNS = 3;
const SECOND_READ_WIDTH = 1300;

/** Two reads of the MRZ lines differing in margin and width, so that their errors are not the same. */
interface CropRead {
  band: number;
  stretch: number;
}
const READS: [CropRead, CropRead] = [
  { band: 1.2, stretch: 1.6 },
  { band: 1.45, stretch: 2.0 },
];
/** The names line's cut at its printed proportions: MRZ fonts other than OCR-B lose fillers and letters when widened. */
const NARROW_READ: CropRead = { band: 1.3, stretch: 1.0 };

/** A side as the readers take it: a prepared image, a PDF's bytes, or nothing readable. */
type Decoded = PreparedImage | { kind: 'pdf'; bytes: Uint8Array } | undefined;

interface PreparedImage {
  kind: 'image';
  width: number;
  height: number;
  /** The upright grayscale image, optionally cropped, scaled to `width` (and widened by `stretch`), contrast-stretched, as PNG. */
  png: (width: number, region?: Region, stretch?: number) => Promise<Buffer>;
  /** A band around a text line (centre, length, height, angle in degrees), levelled, 48 pixels high and widened by `stretch`, as PNG. */
  line: (line: { centerX: number; centerY: number; length: number; height: number; angle: number }, stretch: number) => Promise<Buffer>;
  /** The image turned clockwise by `angle` degrees. */
  rotate: (angle: number) => Promise<PreparedImage>;
}

/** The image's pixels (grayscale, raw) as the readers use them. */
function prepared(sharp: typeof Sharp, raw: { data: Buffer; info: OutputInfo }): PreparedImage {
  const { width, height, channels } = raw.info;
  return {
    kind: 'image',
    width,
    height,
    rotate: async (angle) => prepared(sharp, await sharp(raw.data, { raw: { width, height, channels } }).rotate(angle, { background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true })),
    png: async (targetWidth, region, stretch = 1) => {
      let img = sharp(raw.data, { raw: { width, height, channels } });
      const r = region ? clampRegion(region, width, height) : { left: 0, top: 0, width, height };
      if (region) img = img.extract(r);
      const h = Math.max(1, Math.round((r.height * targetWidth) / r.width / stretch));
      // Pages keep sharp's own normalise: resized down inside one pipeline, a few pixels' stretched values differ by one from those of the resized bytes.
      return img.resize({ width: Math.round(targetWidth), height: h, fit: 'fill' }).normalize().png({ compressionLevel: 0 }).toBuffer();
    },
    line: async (l, stretch) => {
      // Cut a square around the line, level it, then keep the band of the line.
      const { square, band } = lineSquare(l, width, height);
      // Only the part of the square the band comes from is levelled (level.ts: the same bytes, a tenth of the work).
      const size = l.angle % 90 === 0 ? undefined : levelledSize(square, -l.angle);
      const window = size && levelWindow(square, -l.angle, clampRegion(band, size.width, size.height));
      const levelled = window
        ? await sharp(raw.data, { raw: { width, height, channels } })
            .extract({ left: square.left + window.part.left, top: square.top + window.part.top, width: window.part.width, height: window.part.height })
            .affine(window.matrix, { background: '#ffffff', odx: window.odx, ody: window.ody })
            .raw()
            .toBuffer({ resolveWithObject: true })
        : await sharp(raw.data, { raw: { width, height, channels } }).extract(square).rotate(-l.angle, { background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
      const cut = window ? window.cut : clampRegion(band, levelled.info.width, levelled.info.height);
      // Recognition scales lines to 48 pixels high: widening them gives each character more
      // columns, so that repeated characters (00, <<) are not merged.
      const targetHeight = 48;
      const widened = await sharp(levelled.data, { raw: { width: levelled.info.width, height: levelled.info.height, channels: levelled.info.channels } })
        .extract(cut)
        .resize({ width: Math.round((cut.width * targetHeight * stretch) / cut.height), height: targetHeight, fit: 'fill' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      return stretched(sharp, widened);
    },
  };
}

const normalisers = new WeakMap<typeof Sharp, Normalise>();
/** An image contrast-stretched as sharp's `normalise()` stretches it (normalise.ts: the same bytes from a lookup table), as PNG. */
async function stretched(sharp: typeof Sharp, image: RawImage): Promise<Buffer> {
  let normalise = normalisers.get(sharp);
  if (!normalise) normalisers.set(sharp, (normalise = normaliser(sharp)));
  const out = await normalise(image);
  return sharp(out.data, { raw: { width: out.info.width, height: out.info.height, channels: out.info.channels as 1 | 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

/**
 * Maps a detected box's point back to the image: the detector letterboxes its input into sides that
 * are multiples of 32 (fit "contain", centred), then `scale` brings detection pixels to full resolution.
 */
function fromDetection(width: number, height: number, scale: number): (p: [number, number]) => readonly [number, number] {
  const w32 = Math.max(32, Math.ceil(width / 32) * 32);
  const h32 = Math.max(32, Math.ceil(height / 32) * 32);
  const fit = Math.min(w32 / width, h32 / height);
  const padX = (w32 - width * fit) / 2;
  const padY = (h32 - height * fit) / 2;
  return ([x, y]) => [((x - padX) / fit) * scale, ((y - padY) / fit) * scale] as const;
}

const boxWidth = (box: [number, number][]): number => Math.max(...box.map((p) => p[0])) - Math.min(...box.map((p) => p[0]));
const boxHeight = (box: [number, number][]): number => Math.max(...box.map((p) => p[1])) - Math.min(...box.map((p) => p[1]));

/** The runs of lines (bottomRun) from the bottom of the page up, at most `max`. */
function runsUp(lines: LineImage[], max: number): LineImage[][] {
  const runs: LineImage[][] = [];
  for (let rest = lines; rest.length > 0 && runs.length < max; ) {
    const run = bottomRun(rest);
    runs.push(run);
    rest = rest.slice(0, rest.length - run.length);
  }
  return runs;
}

/**
 * The tries after the page as it comes gave no MRZ whose check digits hold, cheapest and likeliest
 * first: the page turned by an angle (degrees clockwise) or detected larger. A page levelled by the
 * slant of its long lines (which leaves them upright or upside down: the slant is known to 180°),
 * turned a quarter either way when they stand upright, detected larger, then turned half a circle;
 * when a run of its lines read as an MRZ only turned half a circle (`turn`: the page's turn that reads
 * them upright), that turn comes first.
 */
export function triesFor(page: { misplaced: boolean; slant: number; vertical: boolean; larger: boolean; turn?: number }): (number | 'larger')[] {
  const slanted = Math.abs(page.slant) >= MIN_SLANT;
  const tries: (number | 'larger')[] = [
    ...(page.misplaced && slanted ? [-page.slant] : []),
    ...(page.misplaced && !slanted && page.vertical ? [90, 270] : []),
    ...(page.larger ? (['larger'] as const) : []),
    ...(page.misplaced && (slanted || !page.vertical) ? [slanted ? 180 - page.slant : 180] : []),
  ];
  const { turn } = page;
  // A turn of almost nothing is the page as it came (its lines were cut the wrong way round).
  if (turn === undefined || !page.misplaced || Math.abs(turn) < MIN_SLANT) return tries;
  return [turn, ...tries.filter((t) => t === 'larger' || Math.abs(normalAngle(t - turn)) >= MIN_SLANT)];
}

/** An angle in degrees as (-180, 180]. */
const normalAngle = (a: number): number => {
  const r = (((a % 360) + 360) % 360);
  return r > 180 ? r - 360 : r;
};

/**
 * The last lines (top to bottom) whose widths are within 12% of the bottom one's, each within
 * MAX_LINE_GAP line heights of the one below it (an MRZ's lines are close; long lines far above are
 * other text): at most three.
 */
function bottomRun(lines: LineImage[]): LineImage[] {
  const last = lines.at(-1);
  if (!last) return [];
  const w = boxWidth(last.box);
  const run: LineImage[] = [];
  for (let i = lines.length - 1; i >= 0 && run.length < 3; i--) {
    const line = lines[i] as LineImage;
    const below = run[0];
    // The line above may be shorter where it starts where the line below does: a names line's last
    // fillers print faint or are cut off by the detector.
    const alike = Math.abs(boxWidth(line.box) - w) <= w * 0.12 || (below !== undefined && boxWidth(line.box) >= w * 0.75 && boxWidth(line.box) < w && startsAlike(line.box, below.box));
    if (!alike) break;
    if (below && top(below.box) - top(line.box) > MAX_LINE_GAP * boxThickness(below.box)) break;
    run.unshift(line);
  }
  return run;
}

/** Two lines start at the same place along their direction (within one and a half line thicknesses). */
function startsAlike(a: [number, number][], b: [number, number][]): boolean {
  const [b0, b1] = b as [[number, number], [number, number]];
  const [a0] = a as [[number, number]];
  const length = Math.hypot(b1[0] - b0[0], b1[1] - b0[1]) || 1;
  const along = ((a0[0] - b0[0]) * (b1[0] - b0[0]) + (a0[1] - b0[1]) * (b1[1] - b0[1])) / length;
  return Math.abs(along) < 1.5 * boxThickness(b);
}

/** How far apart (in line heights, top to top) two lines of one MRZ may lie. */
const MAX_LINE_GAP = 4;

/** A detected box's thickness, across its line. */
const boxThickness = ([p0, , , p3]: [number, number][]): number => (p0 && p3 ? Math.hypot(p3[0] - p0[0], p3[1] - p0[1]) : 0);

/** The angle of a detected box's top side, in degrees clockwise (positive: falling to the right). */
const angleOf = ([p0, p1]: [number, number][]): number => (p0 && p1 ? (Math.atan2(p1[1] - p0[1], p1[0] - p0[0]) * 180) / Math.PI : 0);

/** The median angle of the lines' top sides (0 without lines): how far a page's text slants. */
function medianAngle(lines: LineImage[]): number {
  const angles = lines.map((l) => angleOf(l.box)).sort((a, b) => a - b);
  return angles[Math.floor(angles.length / 2)] ?? 0;
}

const top = (box: [number, number][]): number => Math.min(...box.map((p) => p[1]));

/**
 * An MRZ line is long and thin: longer than `share` of the page's width and over ten times as long as it
 * is thick, measured along the detected box's sides (a slanted line is as thin as a level one).
 */
function isMrzShaped(box: [number, number][], pageWidth: number, share: number): boolean {
  const [p0, p1, , p3] = box as [[number, number], [number, number], [number, number], [number, number]];
  const length = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]);
  const thickness = Math.hypot(p3[0] - p0[0], p3[1] - p0[1]);
  return length > pageWidth * share && length > 10 * thickness;
}

/**
 * The date a bill, statement or letter was issued (layouts/letter.ts: after its label in English, French,
 * German or Spanish, or the letter's dated line), as a
 * reading for the flow's proof-of-address age rule. Trusted (0.95) only from a PDF's text layer with
 * an order-proof spelling; a photo's OCR can misread a digit of the year, and a stale date read that
 * way must lead to review, not to a rejection, so it is reported at 0.55, as is a numeric date
 * whose day and month could be swapped.
 */
function issueDate(lines: string[], country: string, source: 'pdf_text' | 'ocr', confidence: Confidence): Reading[] {
  const read = issueDateOf(source === 'ocr' ? lines.map(monthLetters) : lines, dateOrderOf(country));
  if (!read) return [];
  confidence['document.issue_date'] = source === 'pdf_text' && read.unambiguous ? 0.95 : 0.55;
  return [{ field: 'document.issue_date', value: read.iso, source }];
}
