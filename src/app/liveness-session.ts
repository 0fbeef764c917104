import { BadRequestError, NotFoundError, ServiceUnavailableError } from '../domain/errors';
import { CONTENT_TYPES, fileKind } from '../domain/file-type';
import { FACE_LIVENESS, FACE_LIVENESS_SESSION_ID, judgeFaceLiveness } from '../domain/liveness/provider';
import type { FaceLivenessImage, FaceLivenessRecordedResult } from '../ports/liveness';
import { type CreateDocumentDeps, createDocument } from './create-document';
import { allowedType } from './documents';
import { assertOpen, challengeStore, type FaceLivenessDeps, faceLivenessOf, faceLivenessSessionsOf, type LivenessSessionDeps, providerImagePrefix, providerOf } from './liveness';
import { hashToken } from './tokens';
import { resolveSession } from './widget';

/** The body of `POST /v/{token}/liveness/session/{sessionId}`: the SELFIE document type the reference image is filed as. */
export interface FaceLivenessSessionInput {
  document: { type: number; country: string };
}

const MESSAGES = {
  unknown: 'Unknown liveness session: start a new check',
  used: 'This liveness session was already completed: start a new check',
  unfinished: 'This liveness check is not finished yet: finish it in the camera view, then send it again',
  expired: 'This liveness session expired before the check finished: start a new check',
  noPicture: 'The liveness check kept no picture of the face: start a new check',
} as const;

/** An image the service keeps: where it is (or will be) stored, and its bytes when the service stores it. */
interface Placed {
  key: string;
  bytes?: Uint8Array;
}

/**
 * Where each image goes: a key Rekognition wrote is kept only under the session's own prefix (never
 * another verification's); bytes get a key of their own there, stored once the session is spent.
 */
function place(image: FaceLivenessImage | null | undefined, prefix: string, name: string): Placed | null {
  if (!image) return null;
  if (image.bytes) return { key: `${prefix}/${name}`, bytes: image.bytes };
  return image.key?.startsWith(`${prefix}/`) ? { key: image.key } : null;
}

const contentTypeOf = (bytes: Uint8Array): string => {
  const kind = fileKind(bytes);
  return kind && kind !== 'pdf' ? CONTENT_TYPES[kind] : 'application/octet-stream';
};

/** An image Rekognition wrote to the image store; one not there (yet) is a 503, not the route's 404. */
async function readWritten(deps: Pick<CreateDocumentDeps, 'blobs'>, key: string): Promise<Uint8Array> {
  try {
    return await deps.blobs.get(key);
  } catch (error) {
    if (error instanceof NotFoundError) throw new ServiceUnavailableError();
    throw error;
  }
}

/**
 * `POST /v/{token}/liveness/session/{sessionId}`: the widget's Rekognition capture finished. The
 * session must be one this widget session was given (its challenge's hash), not yet completed; its
 * result is read from Rekognition by the server (the browser's word counts for nothing) and recorded
 * on the challenge in one conditional write, which spends it: a session completes once. The
 * reference image becomes the SELFIE document (stored like any SELFIE's image, so the face match
 * against the ID runs as usual), bound to the session; the audit images stay under the verification
 * for a reviewer, and the purge removes them. `selfie.liveness` is judged in the pipeline, from the
 * recorded result (src/app/liveness-check.ts): the answer tells the browser nothing about it.
 *
 * Refused with a 400, nothing recorded: a session of another widget session or flow, one already
 * completed, a SELFIE already there, a check not finished (send again once it is). Rekognition not
 * answering is a 503, nothing recorded (send again within the 3 minutes). An expired session, or a
 * finished one without a reference image, is recorded (it counts as a failed attempt) and answered
 * with a 400 that says to start a new check.
 */
export async function completeFaceLivenessSession(deps: LivenessSessionDeps & CreateDocumentDeps & FaceLivenessDeps, token: string, sessionId: string, input: FaceLivenessSessionInput) {
  const { flow, aggregate } = await resolveSession(deps, token);
  assertOpen(aggregate);
  if (providerOf(flow) !== 'rekognition') throw new BadRequestError("This flow's liveness check is the service's own challenge: send the frames to /liveness/frames");
  const provider = faceLivenessOf(deps);
  if (!FACE_LIVENESS_SESSION_ID.test(sessionId)) throw new BadRequestError(MESSAGES.unknown);
  const verificationId = aggregate.verification.id;
  const sessionHash = hashToken(token);
  const sessions = faceLivenessSessionsOf(deps);
  const session = await sessions.find(verificationId, sessionId);
  if (!session || session.sessionHash !== sessionHash) throw new BadRequestError(MESSAGES.unknown);
  if (session.completedAt !== null) throw new BadRequestError(MESSAGES.used);
  if (aggregate.documents.some((d) => d.contextType === 'SELFIE')) throw new BadRequestError('A SELFIE document already exists for this verification; delete it first');
  allowedType(flow, input.document.type, 'SELFIE', input.document.country);

  const result = await provider.getResults(sessionId);
  if (result.status === 'CREATED' || result.status === 'IN_PROGRESS') throw new BadRequestError(MESSAGES.unfinished);
  const prefix = providerImagePrefix(verificationId, session.nonce);
  const reference = result.status === 'EXPIRED' ? null : place(result.referenceImage, prefix, 'reference');
  const audits = result.auditImages.map((image, i) => place(image, prefix, `audit-${i + 1}`)).filter((p): p is Placed => p !== null);
  // The reference image read before the session is spent: an image store that does not answer, or an image Rekognition has
  // not written yet, is a 503 the widget can retry within the session's 3 minutes.
  const referenceBytes = reference ? (reference.bytes ?? (await readWritten(deps, reference.key))) : null;

  const judged = judgeFaceLiveness(result, deps.faceLivenessMinConfidence ?? FACE_LIVENESS.minConfidence);
  const recorded: FaceLivenessRecordedResult = { status: result.status, confidence: result.confidence, referenceImageKey: reference?.key ?? null, auditImageKeys: audits.map((a) => a.key) };
  const passed = judged.passed && referenceBytes !== null;
  const reason = passed ? null : (judged.reason ?? 'provider_unavailable');
  const done = await sessions.complete(verificationId, session.nonce, { sessionHash, sessionId, completedAt: deps.clock.now(), result: recorded, passed, reason });
  if (!done.completed) throw new BadRequestError(done.reason === 'session_used' ? MESSAGES.used : MESSAGES.unknown);

  // The session is spent from here: a failure below leaves images named on the challenge (the purge removes them), and the person starts a new check.
  for (const image of [...(reference?.bytes ? [reference] : []), ...audits.filter((a) => a.bytes)]) {
    await deps.blobs.put(image.key, image.bytes as Uint8Array, contentTypeOf(image.bytes as Uint8Array));
  }
  if (result.status === 'EXPIRED') throw new BadRequestError(MESSAGES.expired);
  if (!referenceBytes) throw new BadRequestError(MESSAGES.noPicture);
  const created = await createDocument(deps, flow.path, {
    verification: verificationId,
    document: { context_type: 'SELFIE', type: input.document.type, country: input.document.country, front_side_data: Buffer.from(referenceBytes).toString('base64') },
  });
  await challengeStore(deps).bindDocument(verificationId, session.nonce, created.id);
  return { id: created.id, status_label: created.status_label, context_type: 'SELFIE' as const };
}
