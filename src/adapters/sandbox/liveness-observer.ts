import { createHash } from 'node:crypto';
import type { ImageRef } from '../../domain/entities';
import type { FrameObservation } from '../../domain/liveness/types';
import type { BlobStore } from '../../ports/blob-store';
import type { ChallengeObservation, LivenessObserver, StoredFrame } from '../../ports/liveness';
import { readSandboxPayload } from './payload';

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
/** Longest descriptor and most landmarks a frame's payload may carry. */
const MAX_DESCRIPTOR = 512;
const MAX_LANDMARKS = 500;

function numbers(raw: unknown, max: number): number[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > max || !raw.every(finite)) return undefined;
  return raw as number[];
}

function points(raw: unknown): [number, number][] | undefined {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_LANDMARKS) return undefined;
  if (!raw.every((p) => Array.isArray(p) && p.length === 2 && finite(p[0]) && finite(p[1]))) return undefined;
  return raw as [number, number][];
}

/**
 * Test mode: what a frame shows is what its sandbox payload says (`{"liveness": {faces, yaw, pitch,
 * roll, eyeOpen, mouthOpen, landmarks, descriptor}}` in a JPEG comment, as docs/how-to/integrate-the-api.md "Test mode"
 * describes), so tests and integrators judge challenges without face models; the verdict is still
 * the real check's (src/domain/liveness/verify.ts). A frame without a payload shows no face; the
 * portrait's descriptor is its payload's `face.descriptor`.
 */
export class SandboxLivenessObserver implements LivenessObserver {
  readonly name = 'sandbox';
  constructor(private readonly blobs: BlobStore) {}

  async observe(frames: StoredFrame[], _steps?: unknown, portrait?: ImageRef): Promise<ChallengeObservation> {
    const [observed, portraitDescriptor] = await Promise.all([this.frames(frames), portrait ? this.portraitDescriptor(portrait) : undefined]);
    return { frames: observed, ...(portraitDescriptor && { portraitDescriptor }) };
  }

  private frames(frames: StoredFrame[]): Promise<FrameObservation[]> {
    return Promise.all(
      frames.map(async (frame): Promise<FrameObservation> => {
        const bytes = await this.blobs.get(frame.key);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const payload = readSandboxPayload(bytes) as { liveness?: Record<string, unknown> } | undefined;
        const seen = payload?.liveness;
        if (!seen || typeof seen !== 'object') return { t: frame.t, faces: 0, sha256 };
        const faces = finite(seen.faces) ? Math.max(0, Math.round(seen.faces)) : 1;
        const observation: FrameObservation = { t: frame.t, faces, sha256 };
        for (const key of ['yaw', 'pitch', 'roll', 'eyeOpen', 'mouthOpen'] as const) if (finite(seen[key])) observation[key] = seen[key];
        const landmarks = points(seen.landmarks);
        if (landmarks) observation.landmarks = landmarks;
        const descriptor = numbers(seen.descriptor, MAX_DESCRIPTOR);
        if (descriptor) observation.descriptor = descriptor;
        return observation;
      }),
    );
  }

  private async portraitDescriptor(portrait: ImageRef): Promise<number[] | undefined> {
    const payload = readSandboxPayload(await this.blobs.get(portrait.key)) as { face?: { descriptor?: unknown } } | undefined;
    return numbers(payload?.face?.descriptor, MAX_DESCRIPTOR);
  }
}
