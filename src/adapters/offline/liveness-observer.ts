import type { ImageRef } from '../../domain/entities';
import type { ChallengeStep, FrameObservation } from '../../domain/liveness/types';
import { eyeSpans } from '../../domain/liveness/verify';
import type { BlobStore } from '../../ports/blob-store';
import type { LivenessObserver, StoredFrame } from '../../ports/liveness';
import { faces, sharpModule } from './engines';
import { faceImage } from './face-engines';
import { faceSide } from './face-match';
import { observeFrames } from './face-observer';

/** Largest portrait read for its descriptor (pixels), as the selfie comparison reads it. */
const PORTRAIT_MAX_PIXELS = 4_000_000;

/**
 * The offline engines on a challenge's frames: Human's mesh on each frame and face-api's
 * descriptors on a few (face-observer.ts), and face-api's descriptor of the ID portrait, the same
 * engine the face match uses, so the frames and the portrait are compared in one space.
 */
export class OfflineLivenessObserver implements LivenessObserver {
  readonly name = 'offline';
  constructor(private readonly blobs: BlobStore) {}

  /**
   * Given the challenge's steps, eyes are measured only around its blink windows (eyeSpans), where
   * the check reads them (without them, on every frame), and every step's window has a described frame.
   */
  async observe(frames: StoredFrame[], steps?: readonly ChallengeStep[]): Promise<FrameObservation[]> {
    const bytes = await Promise.all(frames.map((f) => this.blobs.get(f.key)));
    return observeFrames(bytes, frames.map((f) => f.t), steps ? { eyes: eyeSpans(steps), windows: steps.map((s) => s.windowMs) } : {});
  }

  async portraitDescriptor(portrait: ImageRef): Promise<number[] | undefined> {
    const rgb = await faceImage(await sharpModule(), await this.blobs.get(portrait.key), PORTRAIT_MAX_PIXELS).catch(() => undefined);
    if (!rgb) return undefined;
    const side = faceSide(await (await faces()).faces(rgb));
    return side.face && side.count === 1 ? side.face.embedding : undefined;
  }
}
