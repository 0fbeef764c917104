import type { VerificationAggregate } from '../domain/entities';
import { BadRequestError, InvalidStateError, ServiceUnavailableError, TooManyRequestsError } from '../domain/errors';
import { fileKind, imageDimensions } from '../domain/file-type';
import { DEFAULT_CHECKS, type Flow, type LivenessProvider } from '../domain/flow';
import { FACE_LIVENESS } from '../domain/liveness/provider';
import type { LivenessChallenge } from '../domain/liveness/types';
import { VerificationStatus } from '../domain/status';
import { burstFrames, type FaceLivenessProvider, type FaceLivenessSessions, type LivenessChallenges, type LivenessClientSignals, type StoredBurst } from '../ports/liveness';
import { type CreateDocumentDeps, createDocument } from './create-document';
import type { Deps } from './deps';
import { IMAGE_PREFIX } from './documents';
import { isVirtualCameraLabel, LIVENESS_LIMITS, limitedUntil, newChallenge, nonceIssuedAtMs, nonceProblem } from './liveness-challenge';
import { hashToken } from './tokens';
import { resolveSession, type SessionDeps } from './widget';

/** What a burst may weigh, as a challenge tells the widget (the frames route checks the same LIVENESS_LIMITS). */
export const BURST_LIMITS = {
  min_fps: LIVENESS_LIMITS.minFps,
  min_frames: LIVENESS_LIMITS.minFrames,
  max_frames: LIVENESS_LIMITS.maxFrames,
  max_duration_ms: LIVENESS_LIMITS.maxDurationMs,
  max_frame_bytes: LIVENESS_LIMITS.maxFrameBytes,
  max_frame_side: LIVENESS_LIMITS.maxFrameSide,
  max_total_bytes: LIVENESS_LIMITS.maxTotalBytes,
} as const;

/** What the liveness routes use: the session, the challenges, the clock. */
export type LivenessSessionDeps = SessionDeps & Pick<Deps, 'liveness' | 'clock'>;

/** The challenge store: optional in Deps (the shared fakes hold none), always given to the functions whose route or entry names it. */
export function challengeStore(deps: Pick<Deps, 'liveness'>): LivenessChallenges {
  if (!deps.liveness) throw new Error("port 'liveness' is not given: declare it in the route (src/http/routes.ts) or entry (src/entries.ts)");
  return deps.liveness;
}

/**
 * Amazon Rekognition Face Liveness, for the flows whose `checks.liveness_provider` is `rekognition`
 * (deployed only). Optional like `liveness`: a deployment without it (npm start) answers those flows
 * plainly, and the shared fakes hold none.
 */
export type FaceLivenessDeps = Pick<Deps, 'faceLiveness' | 'faceLivenessSessions' | 'faceLivenessMinConfidence'>;

/** Who judges the flow's liveness: the server's own challenge (the default) or Rekognition. */
export const providerOf = (flow: Flow): LivenessProvider => ({ ...DEFAULT_CHECKS, ...flow.checks }).liveness_provider ?? 'challenge';

/** The provider of a `rekognition` flow: a clear 400 where the deployment has none (the widget then offers the photo, which a person reviews). */
export function faceLivenessOf(deps: FaceLivenessDeps): FaceLivenessProvider {
  if (!deps.faceLiveness) throw new InvalidStateError('Amazon Rekognition Face Liveness is not available in this deployment: continue without the liveness check (a person will review the selfie)');
  return deps.faceLiveness;
}

/** The provider session store: always given to the functions whose route or entry names it. */
export function faceLivenessSessionsOf(deps: FaceLivenessDeps): FaceLivenessSessions {
  if (!deps.faceLivenessSessions) throw new Error("port 'faceLivenessSessions' is not given: declare it in the route (src/http/routes.ts) or entry (src/entries.ts)");
  return deps.faceLivenessSessions;
}

/**
 * Where Rekognition writes a session's reference and audit images (or the service writes them, when
 * they come back as bytes): under the verification's image prefix, in the challenge's own folder,
 * beside where a challenge's frames go. No trailing slash: Rekognition names the objects below it.
 */
export function providerImagePrefix(verificationId: string, nonce: string): string {
  return `${IMAGE_PREFIX}${verificationId}/liveness-${nonce}`;
}

export function assertOpen(aggregate: VerificationAggregate): void {
  if (aggregate.verification.status !== VerificationStatus.Started) {
    throw new InvalidStateError('This session is closed: the documents were already submitted, or the verification ended');
  }
}

/** How the widget is told to wait: 429 with Retry-After, and a message that says how long (docs/explanation/liveness.md). */
export class LivenessRateLimitedError extends TooManyRequestsError {
  constructor(retryAfterSeconds: number) {
    super(`Too many liveness attempts: try again in ${retryAfterSeconds} seconds`, retryAfterSeconds);
  }
}

/**
 * `POST /v/{token}/liveness/challenge`: draws a new challenge (2–3 actions, their order and windows
 * at random) for the session's verification, bound to the session by its token's hash, valid for
 * two minutes and once. Refused while the session had `maxFailed` failed challenges in the last
 * `windowMs` (the answer says when to come back), and past `maxPerVerification` in all. Issuing is
 * a conditional write on the verification's count of challenges, so concurrent requests cannot
 * both slip under the limit.
 *
 * In a flow whose liveness provider is `rekognition` the challenge has no steps: it is issued under
 * the same limits, valid 3 minutes (a Rekognition session's life), and carries an Amazon Rekognition
 * Face Liveness session created for it (ClientRequestToken: the nonce; images written under the
 * verification). The answer is the session id and region the widget's capture streams to, and the
 * Cognito identity pool it gets its credentials from (`identity_pool_id`, left out where the
 * deployment has none: the widget then says the check cannot start there); the nonce never reaches
 * the browser. `POST /v/{token}/liveness/session/{sessionId}` completes it
 * (src/app/liveness-session.ts).
 */
export async function issueLivenessChallenge(deps: LivenessSessionDeps & FaceLivenessDeps & Pick<Deps, 'faceLivenessCapture'>, token: string) {
  const { flow, aggregate } = await resolveSession(deps, token);
  assertOpen(aggregate);
  const rekognition = providerOf(flow) === 'rekognition' ? faceLivenessOf(deps) : null;
  const verificationId = aggregate.verification.id;
  const sessionHash = hashToken(token);
  for (let attempt = 0; attempt < 5; attempt++) {
    const nowMs = Date.parse(deps.clock.now());
    const { challenges, issued } = await challengeStore(deps).recent(verificationId, new Date(nowMs - LIVENESS_LIMITS.windowMs).toISOString());
    if (issued >= LIVENESS_LIMITS.maxPerVerification) throw new InvalidStateError('Too many liveness attempts for this verification: continue without liveness or contact the company');
    const until = limitedUntil(challenges, nowMs);
    if (until !== null) throw new LivenessRateLimitedError(Math.max(1, Math.ceil((until - nowMs) / 1000)));
    const drawn = newChallenge(verificationId, sessionHash, nowMs);
    const challenge: LivenessChallenge = rekognition ? { ...drawn, steps: [], expiresAt: new Date(nowMs + FACE_LIVENESS.sessionTtlMs).toISOString() } : drawn;
    if (await challengeStore(deps).issue(challenge, issued)) {
      if (rekognition) {
        // Issued first, so that the limits hold before Rekognition is asked; a failure below leaves an unused challenge, counted as failed.
        const { sessionId } = await rekognition.createSession({ clientRequestToken: challenge.nonce, imageKeyPrefix: providerImagePrefix(verificationId, challenge.nonce) });
        await faceLivenessSessionsOf(deps).attach(verificationId, challenge.nonce, { sessionHash, sessionId, region: rekognition.region });
        const capture = deps.faceLivenessCapture;
        return { provider: 'rekognition' as const, session_id: sessionId, region: rekognition.region, expires_at: challenge.expiresAt, ...(capture && { identity_pool_id: capture.identityPoolId }) };
      }
      return {
        nonce: challenge.nonce,
        expires_at: challenge.expiresAt,
        steps: challenge.steps.map((s) => ({ action: s.action, start_ms: s.windowMs[0], end_ms: s.windowMs[1] })),
        frames: BURST_LIMITS,
      };
    }
  }
  throw new ServiceUnavailableError();
}

/** The body of `POST /v/{token}/liveness/frames`, as its schema (src/http/schemas.ts) gives it. */
export interface LivenessFramesInput {
  nonce: string;
  document: { type: number; country: string };
  frames: { t: number; data: string }[];
  signals?: { device_label?: string | undefined; reported_fps?: number | undefined } | undefined;
}

interface DecodedFrame {
  bytes: Buffer;
  contentType: string;
  t: number;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Each frame: base64 of a JPEG or WebP within the frame limits; together within the burst's. Cheap checks only: the pipeline judges the content. */
function decodeFrames(frames: LivenessFramesInput['frames']): DecodedFrame[] {
  const L = LIVENESS_LIMITS;
  if (frames.length < L.minFrames || frames.length > L.maxFrames) {
    throw new BadRequestError(`frames: send ${L.minFrames} to ${L.maxFrames} frames (at least ${L.minFps} a second, at most ${L.maxDurationMs / 1000} s)`);
  }
  let total = 0;
  let previous = -1;
  const decoded = frames.map((frame, i) => {
    const field = `frames.${i}`;
    if (!Number.isFinite(frame.t) || frame.t < 0 || frame.t <= previous) throw new BadRequestError(`${field}.t must be a capture time in ms, increasing from frame to frame`);
    previous = frame.t;
    const text = frame.data.replace(/^data:image\/[a-z]+;base64,/i, '');
    if (text.length === 0 || text.length % 4 !== 0 || !BASE64.test(text)) throw new BadRequestError(`${field}.data is not valid base64`);
    if ((text.length / 4) * 3 > L.maxFrameBytes + 3) throw new BadRequestError(`${field}.data is larger than the ${L.maxFrameBytes} byte limit per frame: downscale the frames`);
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length > L.maxFrameBytes) throw new BadRequestError(`${field}.data is larger than the ${L.maxFrameBytes} byte limit per frame: downscale the frames`);
    total += bytes.length;
    const kind = fileKind(bytes);
    if (kind !== 'jpg' && kind !== 'webp') throw new BadRequestError(`${field}.data is not a JPEG or WebP image`);
    let size: { width: number; height: number };
    try {
      size = imageDimensions(kind, bytes);
    } catch {
      throw new BadRequestError(`${field}.data is not a readable image`);
    }
    if (size.width > L.maxFrameSide || size.height > L.maxFrameSide) throw new BadRequestError(`${field}.data is ${size.width}×${size.height} pixels; frames are at most ${L.maxFrameSide} pixels a side`);
    return { bytes, contentType: kind === 'jpg' ? 'image/jpeg' : 'image/webp', t: frame.t };
  });
  if (total > L.maxTotalBytes) throw new BadRequestError(`frames are ${total} bytes together; the limit is ${L.maxTotalBytes}`);
  const span = (decoded[decoded.length - 1]?.t ?? 0) - (decoded[0]?.t ?? 0);
  if (span > L.maxDurationMs + 1000) throw new BadRequestError(`frames span ${Math.round(span)} ms; a burst is at most ${L.maxDurationMs} ms`);
  return decoded;
}

const NONCE_MESSAGES = {
  nonce_unknown: 'Unknown liveness challenge: ask for a new one',
  nonce_expired: 'This liveness challenge has expired: ask for a new one',
  nonce_used: 'This liveness challenge was already used: ask for a new one',
} as const;

/**
 * Where a challenge's frames are stored: under the verification's image prefix (the functions' S3
 * grants), in a folder of the challenge's own, outside any document's (the orphan sweep judges only
 * `<document>/<image>-front|back` keys).
 */
export function framePrefix(verificationId: string, nonce: string): string {
  return `${IMAGE_PREFIX}${verificationId}/liveness-${nonce}/frame-`;
}

/**
 * `POST /v/{token}/liveness/frames`: the burst filmed while the person followed the challenge. The
 * nonce must be the session's, unexpired and unused; it is marked used by a conditional write
 * before anything is stored, so a nonce serves one burst even when two arrive at once. The frames
 * go to the image store under the verification (named on the challenge, so the purge finds them),
 * and the first frame becomes the SELFIE document that the face match and the liveness check use,
 * bound to the challenge: a selfie made any other way has no challenge and is never judged live.
 * The frames themselves are judged in the pipeline, not here: the browser learns nothing about
 * what passed.
 */
export async function submitLivenessFrames(deps: LivenessSessionDeps & CreateDocumentDeps, token: string, input: LivenessFramesInput) {
  const { flow, aggregate } = await resolveSession(deps, token);
  assertOpen(aggregate);
  if (providerOf(flow) === 'rekognition') throw new BadRequestError("This flow's liveness check is Amazon Rekognition Face Liveness: frames are not accepted");
  const verificationId = aggregate.verification.id;
  const sessionHash = hashToken(token);
  if (Number.isNaN(nonceIssuedAtMs(input.nonce))) throw new BadRequestError(NONCE_MESSAGES.nonce_unknown);
  const known = await challengeStore(deps).get(verificationId, input.nonce);
  const problem = nonceProblem(known, sessionHash, Date.parse(deps.clock.now()));
  if (problem) throw new BadRequestError(NONCE_MESSAGES[problem]);
  const frames = decodeFrames(input.frames);
  if (aggregate.documents.some((d) => d.contextType === 'SELFIE')) throw new BadRequestError('A SELFIE document already exists for this verification; delete it first');

  const label = input.signals?.device_label?.slice(0, 200) ?? null;
  const signals: LivenessClientSignals = { deviceLabel: label, reportedFps: input.signals?.reported_fps ?? null, virtualCameraLabel: isVirtualCameraLabel(label) };
  const burst: StoredBurst = { keyPrefix: framePrefix(verificationId, input.nonce), times: frames.map((f) => f.t - (frames[0]?.t ?? 0)) };
  const stored = burstFrames(burst);
  const accepted = await challengeStore(deps).accept(verificationId, input.nonce, { sessionHash, usedAt: deps.clock.now(), frames: burst, signals });
  if (!accepted.accepted) throw new BadRequestError(NONCE_MESSAGES[accepted.reason]);

  // The nonce is spent from here: a failure below leaves frames named on the challenge (the purge
  // removes them), and the person asks for a new challenge.
  for (const [i, f] of frames.entries()) await deps.blobs.put(stored[i]?.key as string, f.bytes, f.contentType);
  const first = frames[0] as DecodedFrame;
  const created = await createDocument(deps, flow.path, {
    verification: verificationId,
    document: { context_type: 'SELFIE', type: input.document.type, country: input.document.country, front_side_data: first.bytes.toString('base64') },
  });
  await challengeStore(deps).bindDocument(verificationId, input.nonce, created.id);
  return { id: created.id, status_label: created.status_label, context_type: 'SELFIE' as const, frames: frames.length };
}

/**
 * The purge's part: every stored frame of a verification's challenges, and the reference and audit
 * images of its Rekognition sessions where the function is given their store (the items themselves
 * go with the rest of the verification's partition).
 */
export async function removeLivenessFrames(deps: Pick<Deps, 'liveness' | 'blobs'> & FaceLivenessDeps, verificationId: string): Promise<void> {
  const keys = [...(await challengeStore(deps).frameKeys(verificationId)), ...(deps.faceLivenessSessions ? await deps.faceLivenessSessions.imageKeys(verificationId) : [])];
  if (keys.length > 0) await deps.blobs.deleteOrThrow(keys);
}
