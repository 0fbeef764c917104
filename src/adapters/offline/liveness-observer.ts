import type { ImageRef } from '../../domain/entities';
import type { ChallengeStep } from '../../domain/liveness/types';
import { eyeSpans } from '../../domain/liveness/verify';
import type { BlobStore } from '../../ports/blob-store';
import type { ChallengeObservation, LivenessObserver, StoredFrame } from '../../ports/liveness';
import { faces, sharpModule } from './engines';
import { type ObserveOptions, observeFrames } from './face-observer';
import { portraitRead, portraitSide } from './face-selfie';

/** Largest portrait read for its descriptor (pixels): the selfie comparison's (extractor.ts), so that both share one reading (portraitSide). */
export const PORTRAIT_MAX_PIXELS = 40_000_000;

/**
 * The share of a capture's frames the worker thread meshes (observeFrames) when the ID portrait's
 * descriptor (face-api's detector, about 0.6 s of CPU) is computed on this thread beside the frames
 * (observeCapture): the worker takes more than half and both threads finish together (measured:
 * `npm run bench:liveness -- --portrait beside`). When the portrait was just read (the selfie
 * comparison of the same task, portraitRead), or there is none, each thread takes half. Letting each
 * thread take the next piece of 5 frames when free instead was measured slower, with the portrait
 * beside and without (p95 2.69 s against 2.57 s; 2.24 s against 2.17 s): the worker's round trips
 * cost more than the balance gained.
 */
export const WORKER_SHARE_BESIDE_PORTRAIT = 0.62;

/**
 * Without the challenge's steps, the capture is cut into this many equal spans, each given a
 * described frame: their middles are under a second apart in a 5-second capture, closer than any
 * step's window is long (1.2 s at least), so every step still has a described frame.
 */
const UNKNOWN_STEP_SPANS = 5;

/** `n` equal spans of a capture (ms after its first frame). */
function spans(times: number[], n: number): [number, number][] {
  const first = times[0] ?? 0;
  const duration = Math.max(0, ...times.map((t) => t - first));
  return Array.from({ length: n }, (_, k) => [(k * duration) / n, ((k + 1) * duration) / n]);
}

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
   * the check reads them, and every step's window has a described frame; without them, eyes on every
   * frame and a described frame in each fifth of the capture.
   */
  async observe(frames: StoredFrame[], steps?: readonly ChallengeStep[], portrait?: ImageRef): Promise<ChallengeObservation> {
    const [bytes, portraitBytes] = await Promise.all([Promise.all(frames.map((f) => this.blobs.get(f.key))), portrait ? this.blobs.get(portrait.key) : undefined]);
    const times = frames.map((f) => f.t);
    const shape = steps ? { eyes: eyeSpans(steps), windows: steps.map((s) => s.windowMs) } : { windows: spans(times, UNKNOWN_STEP_SPANS) };
    return observeCapture(bytes, times, shape, portraitBytes);
  }
}

/**
 * A capture's frames observed (observeFrames, with `options`) and, given the ID portrait's bytes, its
 * descriptor computed beside them: read as the face match reads it (face engine with its own
 * detector, one face only) and shared with it (portraitSide remembers it), so when the selfie
 * comparison of the same task has just read it, it costs nothing and the frames get both threads
 * evenly; otherwise the worker thread takes the larger share (WORKER_SHARE_BESIDE_PORTRAIT).
 */
export async function observeCapture(bytes: Uint8Array[], times: number[], options: ObserveOptions, portrait?: Uint8Array): Promise<ChallengeObservation> {
  const read = portrait === undefined || portraitRead(await faces(), portrait, PORTRAIT_MAX_PIXELS);
  const [observed, portraitDescriptor] = await Promise.all([
    observeFrames(bytes, times, { ...options, ...(!read && { workerShare: WORKER_SHARE_BESIDE_PORTRAIT }) }),
    portrait ? portraitDescriptorOf(portrait) : undefined,
  ]);
  return { frames: observed, ...(portraitDescriptor && { portraitDescriptor }) };
}

/** The ID portrait's descriptor, as the face match reads it; undefined without exactly one face. */
async function portraitDescriptorOf(bytes: Uint8Array): Promise<number[] | undefined> {
  const side = await portraitSide(await sharpModule(), await faces(), bytes, PORTRAIT_MAX_PIXELS).catch(() => undefined);
  return side?.face && side.count === 1 ? side.face.embedding : undefined;
}
