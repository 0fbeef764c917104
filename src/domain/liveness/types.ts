/**
 * Active liveness (proof of presence): the server draws a challenge, the person's browser films the
 * face while they follow it, and the server checks the frames. The types both sides share: the
 * challenge as issued and stored (src/app/liveness*.ts), what the face models observe in each frame
 * (src/adapters/offline/face-observer.ts), and the verdict of the pure check (src/domain/liveness/verify.ts).
 */

/** What the person is asked to do, one at a time. */
export const LIVENESS_ACTIONS = ['turn_left', 'turn_right', 'look_up', 'look_down', 'blink', 'open_mouth'] as const;
export type LivenessAction = (typeof LIVENESS_ACTIONS)[number];

/** One requested action and the window (ms after capture start) in which it must happen. */
export interface ChallengeStep {
  action: LivenessAction;
  /** Start and end of the window, milliseconds after the first frame. */
  windowMs: [number, number];
}

/** A challenge as the server issued it: bound to one verification and one widget session, single use. */
export interface LivenessChallenge {
  /** Random, unguessable; the frames are uploaded with it. */
  nonce: string;
  verificationId: string;
  /** SHA-256 of the widget session token the challenge was issued to. */
  sessionHash: string;
  steps: ChallengeStep[];
  issuedAt: string;
  expiresAt: string;
  /** Set when frames were submitted with it: a nonce is used once. */
  usedAt: string | null;
}

/** What the face models saw in one frame (no image, no biometric template beyond `descriptor`). */
export interface FrameObservation {
  /** Capture time in ms, as the browser stamped it (monotonic within the burst). */
  t: number;
  /** Faces found in the frame. */
  faces: number;
  /** Head pose in degrees (yaw: + = the person's left; pitch: + = up; roll). Undefined without one face. */
  yaw?: number;
  pitch?: number;
  roll?: number;
  /** 0 (closed) .. 1 (open), both eyes averaged. */
  eyeOpen?: number;
  /** 0 (closed) .. 1 (wide open). */
  mouthOpen?: number;
  /** A fixed subset of 2-D landmarks in pixels (same order every frame): the flatness and parallax checks use them. */
  landmarks?: [number, number][];
  /** Face descriptor (same-person checks); not stored beyond the check. */
  descriptor?: number[];
  /** SHA-256 of the frame's bytes: repeated frames are a replay sign. */
  sha256: string;
}

/** Why a challenge was refused; each check names its own reason. */
export const LIVENESS_REASONS = [
  'nonce_unknown',
  'nonce_expired',
  'nonce_used',
  'too_few_frames',
  'timing_implausible',
  'repeated_frames',
  'no_single_face',
  'action_missing',
  'action_out_of_order',
  'different_person',
  'portrait_mismatch',
  'flat_motion',
] as const;
export type LivenessReason = (typeof LIVENESS_REASONS)[number];

/** The outcome of the server's check of one challenge's frames. */
export interface LivenessVerdict {
  passed: boolean;
  /** Empty when passed. */
  reasons: LivenessReason[];
  /** Measured figures behind the verdict (for the rule result and the bench): e.g. frames, fps, homography residual, parallax. */
  measures: Record<string, number>;
}
