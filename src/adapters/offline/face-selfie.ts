import type Sharp from 'sharp';
import { AGE_ESTIMATE_KEY } from '../../domain/age-estimate';
import { fileKind } from '../../domain/file-type';
import { PRESENTATION_KEYS } from '../../domain/presentation';
import { type ExtractedData, FACE_KEYS } from '../../domain/rules';
import type { BlobStore } from '../../ports/blob-store';
import type { Extraction, ExtractionInput } from '../../ports/extractor';
import { type FaceEngine, type FoundFace, faceImage, type PresentationModels, type Rgb } from './face-engines';
import { FACE_ENGINE, faceSide, scoreFromDistance } from './face-match';

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
  const [selfie, portrait] = await Promise.all([side(engines, engine, input.front.key, true), input.compareWith ? side(engines, engine, input.compareWith.key) : undefined]);
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
