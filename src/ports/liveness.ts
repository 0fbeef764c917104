import type { ImageRef } from '../domain/entities';
import type { FaceLivenessOutcome } from '../domain/liveness/provider';
import type { ChallengeStep, FrameObservation, LivenessChallenge, LivenessVerdict } from '../domain/liveness/types';

/**
 * What the browser said about its camera when it sent the frames: recorded beside the challenge as
 * signals for a reviewer, never decisive (a browser can say anything; injection into the browser
 * cannot be ruled out from the server).
 */
export interface LivenessClientSignals {
  /** The camera's label as the browser names it (e.g. "OBS Virtual Camera"), cut to 200 characters. */
  deviceLabel: string | null;
  /** The frame rate the browser reported for the track. */
  reportedFps: number | null;
  /** The label names a known virtual camera (src/app/liveness-challenge.ts `VIRTUAL_CAMERA`). */
  virtualCameraLabel: boolean;
}

/** One accepted frame: where it is stored and when the browser captured it (ms after the first). */
export interface StoredFrame {
  key: string;
  t: number;
}

/**
 * The frames accepted with a nonce, as stored: one key prefix and each frame's capture time, frame
 * `i` at `keyPrefix` + `i` in two digits (60 frames at most). Kept this small so that a
 * verification's challenge items stay small in its partition, which Get Verification reads.
 */
export interface StoredBurst {
  keyPrefix: string;
  times: number[];
}

/** Each frame of a burst: its key and its capture time. */
export function burstFrames(burst: StoredBurst): StoredFrame[] {
  return burst.times.map((t, i) => ({ key: `${burst.keyPrefix}${String(i).padStart(2, '0')}`, t }));
}

/** A challenge as the store holds it: as issued, and what became of it. */
export interface LivenessChallengeRecord extends LivenessChallenge {
  /** The frames accepted with the nonce (empty until then). */
  frames: StoredFrame[];
  /** The SELFIE document made from the frames, once it is created. */
  documentId: string | null;
  signals: LivenessClientSignals | null;
  /** The pipeline's check of the frames, once it ran. */
  verdict: LivenessVerdict | null;
}

/** Why frames could not be accepted with a nonce (the conditional write's answer). */
export type AcceptRefusal = 'nonce_unknown' | 'nonce_expired' | 'nonce_used';

/**
 * Liveness challenges, each bound to one verification and one widget session, used once. A port of
 * its own (not the verification repository) because only the widget's liveness routes, the
 * pipeline and the purge touch them.
 */
export interface LivenessChallenges {
  /**
   * The verification's challenges issued at or after `since` (ISO 8601), oldest first, and how many
   * it was ever issued: what the limits are judged from.
   */
  recent(verificationId: string, since: string): Promise<{ challenges: LivenessChallengeRecord[]; issued: number }>;
  /**
   * Records a new challenge, provided the verification was still issued `issued` challenges (the
   * count `recent` answered; a conditional write in one transaction with the challenge, so two
   * concurrent requests cannot both pass the limit). False when another came first: read again and
   * judge again.
   */
  issue(challenge: LivenessChallenge, issued: number): Promise<boolean>;
  get(verificationId: string, nonce: string): Promise<LivenessChallengeRecord | undefined>;
  /**
   * Marks the nonce used with its frames, atomically: only when it exists for this session, is
   * unused and unexpired at `usedAt`. Otherwise says why.
   */
  accept(
    verificationId: string,
    nonce: string,
    use: { sessionHash: string; usedAt: string; frames: StoredBurst; signals: LivenessClientSignals },
  ): Promise<{ accepted: true } | { accepted: false; reason: AcceptRefusal }>;
  /** Binds the SELFIE document made from the frames to the challenge. */
  bindDocument(verificationId: string, nonce: string, documentId: string): Promise<void>;
  /** The challenge whose frames made this SELFIE document, if any. */
  forDocument(verificationId: string, documentId: string): Promise<LivenessChallengeRecord | undefined>;
  /** Records the pipeline's verdict (replacing an earlier one: a re-run judges again). */
  recordVerdict(verificationId: string, nonce: string, verdict: LivenessVerdict): Promise<void>;
  /** Every frame key of the verification's challenges: the purge removes them before the items. */
  frameKeys(verificationId: string): Promise<string[]>;
}

/** What the face models saw in a challenge's frames, and the ID portrait they were compared with. */
export interface ChallengeObservation {
  /** One observation per frame, in order. */
  frames: FrameObservation[];
  /** The ID portrait's face descriptor, comparable with the frames' (absent when none was given or no single face is found). */
  portraitDescriptor?: number[];
}

/**
 * What the face models see in a burst of frames: Human's or face-api's landmarks, pose and
 * openness on Node (offline), or what the sandbox's frames say they show (tests, no models).
 */
export interface LivenessObserver {
  readonly name: string;
  /**
   * Observes the frames (read from the image store) and, given the verification's ID portrait, its
   * descriptor too: one call, so that an observer can share its threads between both as it knows
   * best (the offline one gives the portrait a thread's share only when it has not just read it).
   * Given the challenge's steps, an observer may spend its costly reads where they count (eyes only
   * around blink windows, a described frame in every step window); without them it reads as if any
   * step could be anywhere.
   */
  observe(frames: StoredFrame[], steps?: readonly ChallengeStep[], portrait?: ImageRef): Promise<ChallengeObservation>;
}

/**
 * An image the provider kept of a session: stored in the image bucket under the session's prefix
 * (`key`, when the session was created with an output location) or handed back as bytes for the
 * service to store itself. Never logged.
 */
export interface FaceLivenessImage {
  key?: string;
  bytes?: Uint8Array;
}

/** GetFaceLivenessSessionResults, as the service reads it. */
export interface FaceLivenessResult extends FaceLivenessOutcome {
  sessionId: string;
  /** The frame the provider chose for face comparison: it becomes the SELFIE's image. */
  referenceImage: FaceLivenessImage | null;
  /** Frames kept for a reviewer (at most FACE_LIVENESS.auditImagesLimit). */
  auditImages: FaceLivenessImage[];
}

/**
 * A liveness check hosted by a provider: Amazon Rekognition Face Liveness, deployed only. The
 * browser streams the video to the provider with its own short-lived credentials; the server creates
 * the session (bound to one challenge of one widget session) and reads its result. Errors: a
 * provider that cannot answer (throttled, down, or refusing the service's own credentials) is
 * ServiceUnavailableError; a session it does not know is FaceLivenessSessionNotFoundError.
 */
export interface FaceLivenessProvider {
  readonly name: 'rekognition';
  /** Where the browser streams to (Face Liveness is offered in some regions only). */
  readonly region: string;
  /**
   * A new session. `clientRequestToken` makes it idempotent (the challenge's nonce: a retried
   * request gets the same session); `imageKeyPrefix` is where the provider writes the reference and
   * audit images, under the verification (the purge finds them).
   */
  createSession(input: { clientRequestToken: string; imageKeyPrefix: string }): Promise<{ sessionId: string }>;
  /** The session's status, confidence and images (available 3 minutes after it was created). */
  getResults(sessionId: string): Promise<FaceLivenessResult>;
}

/** What the service keeps of a finished provider session: the outcome and where its images are. */
export interface FaceLivenessRecordedResult extends FaceLivenessOutcome {
  referenceImageKey: string | null;
  auditImageKeys: string[];
}

/** A provider session as the store holds it: on the challenge item it was created for. */
export interface FaceLivenessSessionRecord {
  verificationId: string;
  /** The challenge's nonce: the session's ClientRequestToken and the item's key. */
  nonce: string;
  sessionHash: string;
  provider: 'rekognition';
  sessionId: string;
  region: string;
  issuedAt: string;
  expiresAt: string;
  /** When the completion recorded the result: a session is completed once. */
  completedAt: string | null;
  result: FaceLivenessRecordedResult | null;
  /** The SELFIE document made from the reference image. */
  documentId: string | null;
}

/** Why a completion could not be recorded (the conditional write's answer). */
export type CompleteRefusal = 'session_unknown' | 'session_used';

/**
 * The provider sessions of widget sessions, kept on the challenge items of LivenessChallenges (the
 * same limits, the same partition, the same purge): a challenge of a `rekognition` flow has no steps
 * and carries its provider session instead.
 */
export interface FaceLivenessSessions {
  /** Names the provider session on its challenge, once, only for the session the challenge was issued to. */
  attach(verificationId: string, nonce: string, session: { sessionHash: string; sessionId: string; region: string }): Promise<void>;
  /** The verification's challenge that carries this provider session, if any. */
  find(verificationId: string, sessionId: string): Promise<FaceLivenessSessionRecord | undefined>;
  /**
   * Records the result and spends the challenge, atomically: only for this widget session and
   * provider session, and only once. `passed` is the rule's verdict at completion (the failed-attempt
   * limit counts it); the pipeline judges the result again.
   */
  complete(
    verificationId: string,
    nonce: string,
    done: { sessionHash: string; sessionId: string; completedAt: string; result: FaceLivenessRecordedResult; passed: boolean; reason: string | null },
  ): Promise<{ completed: true } | { completed: false; reason: CompleteRefusal }>;
  /** The provider session whose reference image made this SELFIE, if any. */
  forDocument(verificationId: string, documentId: string): Promise<FaceLivenessSessionRecord | undefined>;
  /** Every image key the verification's provider sessions name: the purge removes them. */
  imageKeys(verificationId: string): Promise<string[]>;
}
