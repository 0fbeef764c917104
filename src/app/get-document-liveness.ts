import { NotFoundError } from '../domain/errors';
import { FACE_LIVENESS } from '../domain/liveness/provider';
import { formatTimestamp } from '../domain/time';
import type { Deps } from './deps';
import { loadDocument } from './documents';
import { SIGNED_URL_SECONDS } from './present';

/** What reading a SELFIE's liveness check uses: the document, its challenge, the Rekognition session on it, signed links. */
export type DocumentLivenessDeps = Pick<Deps, 'flows' | 'documents' | 'blobs' | 'liveness' | 'faceLivenessSessions'>;

const NONE = 'No liveness check made this document';

/** A time as every answer gives it (microseconds): a challenge's issue time is stored in milliseconds. */
const timestamp = (iso: string | null): string | null => (iso === null || /\.\d{6}Z$/.test(iso) ? iso : formatTimestamp(Date.parse(iso) * 1000));

/** A recorded verdict as the reviewer reads it: passed or not, the named reasons, the figures behind them. */
function verdictOf(verdict: { passed: boolean; reasons: readonly string[]; measures: Record<string, number> } | null) {
  return verdict ? { passed: verdict.passed, reasons: [...verdict.reasons], measures: { ...verdict.measures } } : null;
}

/**
 * `GET /api/v1/{flow}/documents/{documentId}/liveness`: what the liveness check behind a SELFIE
 * showed, for the reviewer deciding a Double Check. For a Rekognition session: its status and
 * confidence, and signed links (30 minutes, as url_front) to its reference image and its audit
 * images (at most FACE_LIVENESS.auditImagesLimit), which no document names; the reference image is
 * also the SELFIE's own front. For the service's own challenge: the actions drawn and their windows,
 * the frames accepted, the check's verdict (reasons and measures) and the browser's camera signals
 * (never decisive). No frame is linked: the verdict says what they showed. 404 for a document no
 * liveness check made (a still selfie, another context type) and where the function has no store.
 * Links and images are never logged.
 */
export async function getDocumentLiveness(deps: DocumentLivenessDeps, flowPath: string, documentId: string) {
  const { document } = await loadDocument(deps, flowPath, documentId);
  if (document.contextType !== 'SELFIE' || !deps.liveness) throw new NotFoundError(NONE);
  const challenge = await deps.liveness.forDocument(document.verificationId, document.id);
  if (!challenge) throw new NotFoundError(NONE);
  const verdict = verdictOf(challenge.verdict);
  if (challenge.steps.length === 0) {
    const session = deps.faceLivenessSessions ? await deps.faceLivenessSessions.forDocument(document.verificationId, document.id) : undefined;
    if (!session) throw new NotFoundError(NONE);
    const sign = (key: string) => deps.blobs.signedGetUrl(key, SIGNED_URL_SECONDS);
    const result = session.result;
    return {
      provider: 'rekognition' as const,
      session_id: session.sessionId,
      issued_at: timestamp(session.issuedAt),
      completed_at: timestamp(session.completedAt),
      status: result?.status ?? null,
      confidence: result?.confidence ?? null,
      verdict,
      reference_image_url: result?.referenceImageKey ? await sign(result.referenceImageKey) : null,
      audit_image_urls: await Promise.all((result?.auditImageKeys ?? []).slice(0, FACE_LIVENESS.auditImagesLimit).map(sign)),
    };
  }
  return {
    provider: 'challenge' as const,
    issued_at: timestamp(challenge.issuedAt),
    completed_at: timestamp(challenge.usedAt),
    steps: challenge.steps.map((s) => ({ action: s.action, start_ms: s.windowMs[0], end_ms: s.windowMs[1] })),
    frames: challenge.frames.length,
    verdict,
    signals: challenge.signals
      ? { device_label: challenge.signals.deviceLabel, reported_fps: challenge.signals.reportedFps, virtual_camera_label: challenge.signals.virtualCameraLabel }
      : null,
  };
}
