import type { ImageRef } from '../domain/entities';
import type { FrameObservation, LivenessChallenge, LivenessVerdict } from '../domain/liveness/types';

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

/**
 * What the face models see in a burst of frames: Human's or face-api's landmarks, pose and
 * openness on Node (offline), or what the sandbox's frames say they show (tests, no models).
 */
export interface LivenessObserver {
  readonly name: string;
  /** One observation per frame, in order (reads the frames from the image store). */
  observe(frames: StoredFrame[]): Promise<FrameObservation[]>;
  /** The ID portrait's face descriptor, comparable with the frames' (undefined when no single face is found). */
  portraitDescriptor(portrait: ImageRef): Promise<number[] | undefined>;
}
