import { BadRequestError } from '../errors';

/**
 * Liveness judged by a provider that hosts the capture (Amazon Rekognition Face Liveness, deployed
 * only): the browser streams the video to the provider, the server creates the session and reads its
 * result. What the rule decides from that result, and the defaults it decides with, are pure and
 * live here (docs/explanation/liveness.md, "Deployed option").
 */

/** A Face Liveness session's status, as GetFaceLivenessSessionResults reports it. */
export const FACE_LIVENESS_STATUSES = ['CREATED', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED', 'EXPIRED'] as const;
export type FaceLivenessStatus = (typeof FACE_LIVENESS_STATUSES)[number];

/** Why a provider's check did not pass `selfie.liveness`; each sends the selfie to review, never to a pass. */
export const PROVIDER_LIVENESS_REASONS = ['provider_low_confidence', 'provider_session_failed', 'provider_session_expired', 'provider_unavailable'] as const;
export type ProviderLivenessReason = (typeof PROVIDER_LIVENESS_REASONS)[number];

/**
 * Rekognition Face Liveness as the service uses it. `minConfidence` is the deployment's default
 * (REKOGNITION_LIVENESS_MIN_CONFIDENCE; AWS suggests 80–90 against injected or deepfake video, 50–60
 * against printed or replayed pictures only). A session lives 3 minutes at Rekognition, after which
 * its result and images are gone: the widget's session is valid as long. Up to 4 audit images are
 * kept with the verification for a reviewer.
 */
export const FACE_LIVENESS = { minConfidence: 90, sessionTtlMs: 180_000, auditImagesLimit: 4 } as const;

/** What the provider's result says, as the service keeps it (no image: only where the images are). */
export interface FaceLivenessOutcome {
  status: FaceLivenessStatus;
  /** 0–100, as Rekognition gives it; null when it gave none (a session not finished, expired). */
  confidence: number | null;
}

/** The rule's verdict on one provider result. */
export interface ProviderJudgement {
  passed: boolean;
  /** Set when not passed. */
  reason?: ProviderLivenessReason;
}

/**
 * Passes only a SUCCEEDED session whose confidence reaches `minConfidence`. Anything else is a named
 * reason: a low score, a failed or expired session, and no result at all (the provider could not be
 * asked, or gave an answer the service cannot read): fail closed, never a pass.
 */
export function judgeFaceLiveness(outcome: FaceLivenessOutcome | null, minConfidence: number): ProviderJudgement {
  if (!outcome) return { passed: false, reason: 'provider_unavailable' };
  switch (outcome.status) {
    case 'SUCCEEDED':
      if (outcome.confidence === null || !Number.isFinite(outcome.confidence)) return { passed: false, reason: 'provider_unavailable' };
      return outcome.confidence >= minConfidence ? { passed: true } : { passed: false, reason: 'provider_low_confidence' };
    case 'FAILED':
      return { passed: false, reason: 'provider_session_failed' };
    case 'EXPIRED':
      return { passed: false, reason: 'provider_session_expired' };
    default:
      // CREATED or IN_PROGRESS: never recorded as a result (the completion refuses them), unreadable if it were.
      return { passed: false, reason: 'provider_unavailable' };
  }
}

/** A Face Liveness session id: Rekognition's UUID. Anything else is refused before any call. */
export const FACE_LIVENESS_SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The provider does not know the session (never created, or gone: Rekognition keeps a session's
 * result 3 minutes). A 400 that tells the widget to start a new check.
 */
export class FaceLivenessSessionNotFoundError extends BadRequestError {
  constructor() {
    super('This liveness session is unknown or has expired: start a new check');
  }
}
