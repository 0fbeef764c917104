import { createHash } from 'node:crypto';
import type Sharp from 'sharp';
import { AGE_ESTIMATE_KEY } from '../../domain/age-estimate';
import { fileKind } from '../../domain/file-type';
import { PRESENTATION_KEYS } from '../../domain/presentation';
import { type ExtractedData, FACE_KEYS } from '../../domain/rules';
import type { BlobStore } from '../../ports/blob-store';
import type { Extraction, ExtractionInput } from '../../ports/extractor';
import { type FaceEngine, type FoundFace, faceImage, type PresentationModels, type Rgb } from './face-engines';
import { FACE_ENGINE, type FaceSide, faceSide, scoreFromDistance } from './face-match';

/** What reading a selfie uses: the image store and the engines, each loaded on first use (engines.ts). */
export interface SelfieEngines {
  blobs: BlobStore;
  sharp: () => Promise<typeof Sharp>;
  faces: () => Promise<FaceEngine>;
  /** Human's antispoof and liveness models; without them the presentation rules are not evaluated. */
  presentation?: () => Promise<PresentationModels>;
  maxPixels: number;
}

interface Side {
  count: number;
  face?: FoundFace;
  rgb?: Rgb;
}

async function side(engines: SelfieEngines, engine: FaceEngine, key: string, age = false): Promise<Side> {
  const bytes = await engines.blobs.get(key);
  const kind = fileKind(bytes);
  if (!kind || kind === 'pdf') return { count: 0 };
  const rgb = await faceImage(await engines.sharp(), bytes, engines.maxPixels);
  return { ...faceSide(await engine.faces(rgb, { age })), rgb };
}

/** How many ID portraits' faces are remembered (portraitSide). */
const REMEMBERED_PORTRAITS = 8;
/** Each portrait's reading, and whether it has finished (portraitRead). */
const portraits = new Map<string, { side: Promise<FaceSide>; done: boolean }>();
const portraitKey = (engine: FaceEngine, bytes: Uint8Array, maxPixels: number) => `${engine.name}:${maxPixels}:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * The ID portrait's faces, remembered by the image's SHA-256 for the few latest portraits: a selfie
 * made from a liveness challenge needs them twice in one task, for the selfie comparison (readSelfie)
 * and beside the challenge's frames (liveness-observer.ts), and the face engine's detector on a
 * whole document is about 0.6 s of CPU. Only the face figures are kept, in memory, never the image;
 * a failed read is forgotten.
 */
export function portraitSide(sharp: typeof Sharp, engine: FaceEngine, bytes: Uint8Array, maxPixels: number): Promise<FaceSide> {
  const key = portraitKey(engine, bytes, maxPixels);
  const known = portraits.get(key);
  if (known) {
    portraits.delete(key);
    portraits.set(key, known);
    return known.side;
  }
  const kind = fileKind(bytes);
  const read = !kind || kind === 'pdf' ? Promise.resolve({ count: 0 }) : faceImage(sharp, bytes, maxPixels).then(async (rgb) => faceSide(await engine.faces(rgb)));
  const entry: { side: Promise<FaceSide>; done: boolean } = { side: read, done: false };
  entry.side = read.then(
    (side) => ((entry.done = true), side),
    (error: unknown) => {
      portraits.delete(key);
      throw error;
    },
  );
  portraits.set(key, entry);
  for (const old of portraits.keys()) if (portraits.size > REMEMBERED_PORTRAITS) portraits.delete(old);
  return entry.side;
}

/** Whether this portrait's reading has finished and is remembered: portraitSide then returns it without work. */
export function portraitRead(engine: FaceEngine, bytes: Uint8Array, maxPixels: number): boolean {
  return portraits.get(portraitKey(engine, bytes, maxPixels))?.done === true;
}

/** Forgets every remembered portrait: the bench times a portrait read afresh, as a task reads it when no comparison read it before. */
export function forgetPortraits(): void {
  portraits.clear();
}

/**
 * A selfie: its largest face is compared with the photo ID portrait's (when there is one); how many
 * faces each side shows and how wide the largest is go into the confidence map (FACE_KEYS), so that
 * the rules send a comparison the engine cannot judge to review and say why; the score is the
 * calibrated 0–100 of face-match.ts. The selfie face's presentation-attack scores (Human's antispoof
 * and liveness models on its crop) go there too (PRESENTATION_KEYS), and so does the age the age model
 * estimates for it (AGE_ESTIMATE_KEY, for the age rules: the photo ID's date of birth is not known
 * here). Returns the selfie face's
 * descriptor for the duplicate-face index, never stored on the document.
 */
export async function readSelfie(engines: SelfieEngines, input: ExtractionInput, data: ExtractedData, confidence: Record<string, number>): Promise<Extraction['face']> {
  data.document.has_selfie = 'true';
  const engine = await engines.faces();
  const compareWith = input.compareWith;
  const [selfie, portrait] = await Promise.all([
    side(engines, engine, input.front.key, true),
    compareWith ? engines.blobs.get(compareWith.key).then(async (bytes) => portraitSide(await engines.sharp(), engine, bytes, engines.maxPixels)) : undefined,
  ]);
  confidence[FACE_KEYS.selfie.count] = selfie.count;
  if (selfie.face) confidence[FACE_KEYS.selfie.width] = selfie.face.box[2];
  if (selfie.face?.age !== undefined) confidence[AGE_ESTIMATE_KEY] = Math.round(selfie.face.age * 10) / 10;
  if (selfie.face && selfie.rgb && engines.presentation) {
    const scores = await (await engines.presentation()).score(selfie.rgb, selfie.face.box);
    confidence[PRESENTATION_KEYS.antispoof] = scores.real;
    confidence[PRESENTATION_KEYS.liveness] = scores.live;
  }
  const face = selfie.face ? { model: FACE_ENGINE, descriptor: selfie.face.embedding } : undefined;
  if (!portrait) return face;
  confidence[FACE_KEYS.document.count] = portrait.count;
  if (portrait.face) confidence[FACE_KEYS.document.width] = portrait.face.box[2];
  if (!selfie.face || !portrait.face) return face;
  data.document.identified = 'true';
  data.document.selfie_comparison = String(scoreFromDistance(engine.distance(selfie.face.embedding, portrait.face.embedding)));
  confidence['document.selfie_comparison'] = 0.9;
  return face;
}
