import * as v from 'valibot';
import { FACE_LIVENESS_STATUSES } from '../domain/liveness/provider';
import { LIVENESS_ACTIONS } from '../domain/liveness/types';

/**
 * The answer of `GET /api/v1/{flow}/documents/{documentId}/liveness` (src/app/get-document-liveness.ts),
 * for the OpenAPI document and the contract tests, as src/http/response-schemas.ts does for the
 * spec's resources: one shape per provider, told apart by `provider`.
 */
const Str = v.string();
const Timestamp = v.pipe(Str, v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/), v.description('ISO 8601 UTC with microseconds'));
const Verdict = v.pipe(
  v.nullable(v.strictObject({ passed: v.boolean(), reasons: v.array(Str), measures: v.record(Str, v.number()) })),
  v.description('What the check decided, with its named reasons and the figures behind them; null before it ran'),
);
const SignedLink = v.pipe(Str, v.url(), v.description('Temporary signed link to the image; valid 30 minutes'));

export const DocumentLivenessSchema = v.variant('provider', [
  v.strictObject({
    provider: v.literal('rekognition'),
    session_id: Str,
    issued_at: Timestamp,
    completed_at: v.nullable(Timestamp),
    status: v.nullable(v.picklist(FACE_LIVENESS_STATUSES)),
    confidence: v.nullable(v.number()),
    verdict: Verdict,
    reference_image_url: v.nullable(SignedLink),
    audit_image_urls: v.pipe(v.array(SignedLink), v.maxLength(4)),
  }),
  v.strictObject({
    provider: v.literal('challenge'),
    issued_at: Timestamp,
    completed_at: v.nullable(Timestamp),
    steps: v.array(v.strictObject({ action: v.picklist(LIVENESS_ACTIONS), start_ms: v.number(), end_ms: v.number() })),
    frames: v.pipe(v.number(), v.integer()),
    verdict: Verdict,
    signals: v.nullable(v.strictObject({ device_label: v.nullable(Str), reported_fps: v.nullable(v.number()), virtual_camera_label: v.boolean() })),
  }),
]);
