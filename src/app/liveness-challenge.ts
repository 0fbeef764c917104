import { randomBytes, randomInt } from 'node:crypto';
import { type ChallengeStep, LIVENESS_ACTIONS, type LivenessAction, type LivenessChallenge } from '../domain/liveness/types';
import type { LivenessChallengeRecord } from '../ports/liveness';

/**
 * The challenge's rules, in one place: what the server draws, how long a nonce lives, what a burst
 * of frames may weigh and how many failed attempts a session gets. The widget reads the frame
 * limits from the challenge it is given, never from its own copy.
 */
export const LIVENESS_LIMITS = {
  /** A nonce lives 2 minutes: time to read the prompt, follow it and upload, not to study it. */
  ttlMs: 120_000,
  /** Failed challenges (issued, never accepted or refused by the check) a session may have in `windowMs`. */
  maxFailed: 5,
  windowMs: 180_000,
  /** Challenges one verification may be issued in its life: what grows in its partition stays bounded. */
  maxPerVerification: 50,
  /** A burst: 10 frames a second at least, 5 s of capture at most, at most 60 frames. */
  minFps: 10,
  maxDurationMs: 5_000,
  minFrames: 10,
  maxFrames: 60,
  /** A downscaled JPEG or WebP frame (640 px on its long side is about 30–60 KB). */
  maxFrameBytes: 100_000,
  maxFrameSide: 1280,
  /**
   * All frames together: 4,000,000 bytes become 5,333,336 characters of base64, inside Lambda's
   * 6 MB request with room for the JSON around them.
   */
  maxTotalBytes: 4_000_000,
} as const;

/** A source of random integers in [min, max): `crypto.randomInt` when shipped, a seeded one in tests. */
export type RandomInt = (min: number, max: number) => number;

/** Lead-in before the first prompt, and each step's length (ms). */
const LEAD_IN_MS: [number, number] = [200, 600];
const STEP_MS: [number, number] = [1200, 1450];
/** Steps a challenge asks for. */
export const CHALLENGE_STEPS = 3;

/** The actions that move the head sideways: every challenge has one. */
const TURNS: readonly LivenessAction[] = ['turn_left', 'turn_right'];

/**
 * Whether a sequence of actions may be asked: no action twice in a row (the check could not tell
 * two from one), and at least one head turn, anywhere: without head motion (a blink and an open
 * mouth alone) nothing tells a head from a picture, and the check refuses it as flat
 * (src/domain/liveness/verify.ts).
 */
export const askable = (actions: readonly LivenessAction[]): boolean =>
  actions.every((a, i) => i === 0 || a !== actions[i - 1]) && actions.some((a) => TURNS.includes(a));

/** Every askable sequence of CHALLENGE_STEPS actions, in a fixed order: a draw picks one uniformly. */
export const SEQUENCES: readonly (readonly LivenessAction[])[] = (() => {
  let all: LivenessAction[][] = [[]];
  for (let i = 0; i < CHALLENGE_STEPS; i++) all = all.flatMap((s) => LIVENESS_ACTIONS.map((a) => [...s, a]));
  return all.filter(askable);
})();

/**
 * Draws a challenge's steps at random: 3 actions, uniformly among the askable sequences of the six
 * (114 of them: an action may come back after another, "turn left, blink, turn left"), each with a
 * window whose start and length are jittered, so that no recording made before the challenge was
 * issued can follow it, and a recording of an earlier attempt replayed against a new challenge
 * passes only when the draw repeats its sequence (1 in 114; `npm run bench:liveness` measures it).
 * The windows follow each other from a jittered lead-in and end within
 * `LIVENESS_LIMITS.maxDurationMs` of the first frame.
 */
export function drawSteps(random: RandomInt = randomInt): ChallengeStep[] {
  const actions = SEQUENCES[random(0, SEQUENCES.length)] as LivenessAction[];
  const [leadMin, leadMax] = LEAD_IN_MS;
  const [stepMin, stepMax] = STEP_MS;
  let start = random(leadMin, leadMax + 1);
  return actions.map((action) => {
    const end = start + random(stepMin, stepMax + 1);
    const step: ChallengeStep = { action, windowMs: [start, end] };
    start = end;
    return step;
  });
}

/**
 * A nonce: the issue time (base 36, fixed width, so that nonces sort by issue time and the store
 * reads a session's recent ones as a range) and 144 random bits.
 */
export function newNonce(nowMs: number, bytes: (n: number) => Buffer = randomBytes): string {
  return `${nowMs.toString(36).padStart(10, '0')}${bytes(18).toString('base64url')}`;
}

/** The nonce's issue time in ms, or NaN for a string that is no nonce of ours. */
export function nonceIssuedAtMs(nonce: string): number {
  return /^[0-9a-z]{10}[A-Za-z0-9_-]{24}$/.test(nonce) ? Number.parseInt(nonce.slice(0, 10), 36) : Number.NaN;
}

/** A new challenge for one verification and widget session. */
export function newChallenge(verificationId: string, sessionHash: string, nowMs: number, random: RandomInt = randomInt): LivenessChallenge {
  return {
    nonce: newNonce(nowMs),
    verificationId,
    sessionHash,
    steps: drawSteps(random),
    issuedAt: new Date(nowMs).toISOString(),
    expiresAt: new Date(nowMs + LIVENESS_LIMITS.ttlMs).toISOString(),
    usedAt: null,
  };
}

/**
 * A challenge counts as failed until its frames are accepted and, once checked, unless they passed:
 * one abandoned, expired, refused at upload or refused by the check. One still open counts too: a
 * session asking for another has given it up.
 */
export function isFailed(c: LivenessChallengeRecord): boolean {
  return c.usedAt === null || (c.verdict !== null && !c.verdict.passed);
}

/**
 * The rate limit: `null` when a new challenge may be issued at `nowMs`, else the time (ms) when the
 * oldest failed challenge of the window leaves it.
 */
export function limitedUntil(recent: LivenessChallengeRecord[], nowMs: number): number | null {
  const since = nowMs - LIVENESS_LIMITS.windowMs;
  const failed = recent
    .map((c) => Date.parse(c.issuedAt))
    .filter((t, i) => t > since && isFailed(recent[i] as LivenessChallengeRecord))
    .sort((a, b) => a - b);
  if (failed.length < LIVENESS_LIMITS.maxFailed) return null;
  return (failed[failed.length - LIVENESS_LIMITS.maxFailed] as number) + LIVENESS_LIMITS.windowMs;
}

/** Why a nonce cannot be used at `nowMs`, or null when it can (the store's conditional write decides in the end). */
export function nonceProblem(c: LivenessChallengeRecord | undefined, sessionHash: string, nowMs: number): 'nonce_unknown' | 'nonce_expired' | 'nonce_used' | null {
  if (!c || c.sessionHash !== sessionHash) return 'nonce_unknown';
  if (c.usedAt !== null) return 'nonce_used';
  if (Date.parse(c.expiresAt) <= nowMs) return 'nonce_expired';
  return null;
}

/** Camera names of common virtual cameras (OBS, ManyCam, Snap Camera, XSplit, mmhmm, v4l2loopback…). */
const VIRTUAL_CAMERA = /\b(obs|virtual|manycam|snap camera|xsplit|mmhmm|v4l2loopback|e2esoft|splitcam|camtwist|droidcam|epoccam|ndi)\b/i;

/** Whether a camera label names a virtual camera: a signal for the reviewer, never a decision. */
export function isVirtualCameraLabel(label: string | null): boolean {
  return label !== null && VIRTUAL_CAMERA.test(label);
}
