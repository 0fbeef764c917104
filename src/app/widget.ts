import { timingSafeEqual } from 'node:crypto';
import type { VerificationAggregate } from '../domain/entities';
import { InvalidStateError, NotFoundError } from '../domain/errors';
import { CONTEXT_LABELS, type ContextType, DEFAULT_CHECKS, describeFlow, type Flow, findTypeById, type WidgetConfig } from '../domain/flow';
import { documentStatusLabel, VerificationStatus, verificationStatusLabel } from '../domain/status';
import { type CreateDocumentDeps, type CreateDocumentInput, createDocument } from './create-document';
import { imageKeys } from './delete-document';
import type { Deps, FaceLivenessCapture, RequestInfo } from './deps';
import { providerOf } from './liveness';
import { requireFlow, withConflictRetry } from './load';
import { submitVerification } from './submit-verification';
import type { ActionDeps } from './verification-actions';
import { hashToken, sessionToken } from './tokens';
import { documentReading } from './widget-reading';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The end-user widget's credential is the session token in its link: it reaches exactly one
 * verification (stored only as a hash), may read that verification's progress while it exists,
 * and may change it only while it is Started. It never reveals the expected data, but for the
 * documents' expected issuing countries (see `getSession`).
 */
/** Resolving a session token: its hash, the verification, its flow. */
export type SessionDeps = Pick<Deps, 'verifications' | 'sessionSecret' | 'flows'>;

export async function resolveSession(deps: SessionDeps, token: string): Promise<{ flow: Flow; aggregate: VerificationAggregate }> {
  if (!TOKEN.test(token)) throw new NotFoundError('Session not found');
  const id = await deps.verifications.findBySession(hashToken(token));
  const expected = id ? Buffer.from(sessionToken(deps.sessionSecret, id)) : Buffer.alloc(0);
  const given = Buffer.from(token);
  if (!id || expected.length !== given.length || !timingSafeEqual(expected, given)) throw new NotFoundError('Session not found');
  const aggregate = await deps.verifications.get(id);
  if (!aggregate) throw new NotFoundError('Session not found');
  return { flow: await requireFlow(deps, aggregate.verification.flow), aggregate };
}

/**
 * What the link's page needs before its script runs: the verification's status label and the flow's
 * page settings (logo, return link), or null when the link reaches none. In a flow whose liveness is
 * Amazon Rekognition Face Liveness, also where AWS's capture will connect (`faceLiveness`: its
 * region and identity pool), when the deployment has both: the page's policy opens those hosts for
 * that flow only (src/web/widget.ts widgetCsp).
 */
export async function sessionStatus(
  deps: SessionDeps & Pick<Deps, 'faceLivenessCapture'>,
  token: string,
): Promise<{ statusLabel: string; widget: WidgetConfig; faceLiveness?: FaceLivenessCapture } | null> {
  try {
    const { flow, aggregate } = await resolveSession(deps, token);
    const capture = providerOf(flow) === 'rekognition' ? deps.faceLivenessCapture : null;
    return { statusLabel: verificationStatusLabel(aggregate.verification.status), widget: flow.widget ?? {}, ...(capture && { faceLiveness: capture }) };
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

function assertOpen(aggregate: VerificationAggregate): void {
  if (aggregate.verification.status !== VerificationStatus.Started) {
    throw new InvalidStateError('This session is closed: the documents were already submitted, or the verification ended');
  }
}

/**
 * The one part of the expected data the page may show: the issuing country expected of each document,
 * to preselect. A country code is no personal data, and it is what the person holds in their hand;
 * names, numbers, dates and the address stay hidden. A selfie has no issuing country.
 */
function expectedCountry(aggregate: VerificationAggregate, context: ContextType): string | null {
  const { photo_id, proof_of_address } = aggregate.verification.expectedData.documents;
  const expected = context === 'PHOTO_ID' ? photo_id : context === 'PROOF_OF_ADDRESS' ? proof_of_address : undefined;
  return expected?.country || null;
}

/**
 * A reviewer asked for documents again: the verification was moved back to Started after it had
 * left it. Which: the required documents it now lacks (the reviewer deleted them); why: the
 * comment of that move (a non-private comment: the API shows it to the integrator too), or null.
 */
function requestedAgain(flow: Flow, aggregate: VerificationAggregate): { contexts: ContextType[]; reason: string | null } | null {
  const v = aggregate.verification;
  if (v.status !== VerificationStatus.Started) return null;
  const reopened = [...aggregate.history].reverse().find((h) => h.toStatus === VerificationStatus.Started && h.fromStatus !== null && h.fromStatus !== VerificationStatus.Started);
  if (!reopened) return null;
  return {
    contexts: flow.required_contexts.filter((c) => !aggregate.documents.some((d) => d.contextType === c)),
    reason: reopened.comment,
  };
}

/**
 * What the widget page shows: the flow's requirements, the expected documents' countries and the
 * person's uploads with what was read of them at upload (while open: found / not found per field
 * group, no values), no personal data.
 */
export async function getSession(deps: SessionDeps & Pick<Deps, 'extractionCache' | 'ruleThresholds'>, token: string) {
  const { flow, aggregate } = await resolveSession(deps, token);
  const config = describeFlow(flow);
  const open = aggregate.verification.status === VerificationStatus.Started;
  // Read only while the person may still retake (the page polls the session after Submit too).
  const readings = await Promise.all(aggregate.documents.map((d) => (open ? documentReading(deps, d) : null)));
  return {
    status_label: verificationStatusLabel(aggregate.verification.status),
    open,
    flow: flow.name,
    appearance: {
      intro: flow.widget?.intro ?? null,
      consent: flow.widget?.consent ?? null,
      primary_color: flow.widget?.primary_color ?? null,
      return_url: flow.widget?.return_url ?? null,
    },
    requested_again: requestedAgain(flow, aggregate),
    required_contexts: flow.required_contexts,
    // The page films the selfie when the flow asks for liveness, and offers a still photo only as it allows.
    liveness: { ...DEFAULT_CHECKS, ...flow.checks }.liveness ?? 'optional',
    contexts: (Object.keys(CONTEXT_LABELS) as ContextType[])
      .filter((c) => config.document_types.some((t) => t.context_type === c))
      .map((c) => ({ context_type: c, label: CONTEXT_LABELS[c], required: flow.required_contexts.includes(c), expected_country: expectedCountry(aggregate, c) })),
    document_types: config.document_types.map((t) => ({
      id: t.id,
      name: t.name,
      context_type: t.context_type,
      allowed_countries: t.allowed_countries,
      double_sided_countries: t.double_sided_countries,
    })),
    documents: aggregate.documents.map((d, i) => ({
      id: d.id,
      context_type: d.contextType,
      type: findTypeById(flow, d.typeId)?.name ?? '',
      country: d.country,
      status_label: documentStatusLabel(d.status),
      reading: readings[i] ?? null,
    })),
  };
}

export async function uploadFromWidget(deps: SessionDeps & CreateDocumentDeps, token: string, document: CreateDocumentInput['document']) {
  const { flow, aggregate } = await resolveSession(deps, token);
  assertOpen(aggregate);
  const created = await createDocument(deps, flow.path, { verification: aggregate.verification.id, document });
  return { id: created.id, status_label: created.status_label, context_type: document.context_type };
}

/**
 * Removes one of the session's documents while the verification is Started. The delete is
 * conditioned, in its own transaction, on the verification still being Started at the version read
 * here: a Submit that commits first wins and the delete answers "session closed", so a submitted
 * verification never loses a document it was submitted with.
 */
export async function deleteFromWidget(deps: SessionDeps & Pick<Deps, 'documents' | 'blobs'>, token: string, documentId: string): Promise<void> {
  await withConflictRetry(async () => {
    const { aggregate } = await resolveSession(deps, token);
    assertOpen(aggregate);
    const document = aggregate.documents.find((d) => d.id === documentId);
    if (!document) throw new NotFoundError('Document not found');
    await deps.documents.delete(document, { verificationVersion: aggregate.verification.version });
    await deps.blobs.delete(imageKeys(document));
  });
}

export async function submitFromWidget(deps: SessionDeps & ActionDeps, req: RequestInfo, token: string) {
  const { flow, aggregate } = await resolveSession(deps, token);
  assertOpen(aggregate);
  const v = await submitVerification(deps, req, flow.path, aggregate.verification.id);
  return { status_label: v.status_label };
}
