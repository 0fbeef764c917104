import type { ContextType } from '../domain/flow';
import type { DocumentRecord, ImageRef } from '../domain/entities';
import { BadRequestError, InvalidStateError, NotFoundError, WrongFlowError } from '../domain/errors';
import { DocumentStatus, VerificationStatus } from '../domain/status';
import type { Deps } from './deps';
import { allowedType, checkSides, imageKey, withUploads } from './documents';
import { documentEvent, publishCommitted } from './events';
import { decodeImage } from './images';
import { requireFlow } from './load';
import { presentDocument } from './present';

export interface CreateDocumentInput {
  verification: string;
  document: {
    context_type: ContextType;
    type: number;
    country: string;
    front_side_data?: string | undefined;
    back_side_data?: string | undefined;
  };
}

/**
 * Stores the images, then writes the document in one transaction that also checks the verification
 * is still Started and has no document of that context; on any failure the images are removed.
 */
/** What creating a document uses: the verification, the document and its images, its event. */
export type CreateDocumentDeps = Pick<Deps, 'flows' | 'verifications' | 'documents' | 'clock' | 'ids' | 'blobs' | 'events' | 'outbox'>;

export async function createDocument(deps: CreateDocumentDeps, flowPath: string, input: CreateDocumentInput) {
  const flow = await requireFlow(deps, flowPath);
  const agg = await deps.verifications.get(input.verification);
  if (!agg) throw new NotFoundError('Verification not found');
  const v = agg.verification;
  if (v.flow !== flow.path) throw new WrongFlowError('Verification', flow.path, v.flow);
  if (v.status === VerificationStatus.Canceled) throw new InvalidStateError('Verification is canceled');
  if (v.status !== VerificationStatus.Started) throw new InvalidStateError('Verification is not in Started status');

  const { context_type: context, country } = input.document;
  const type = allowedType(flow, input.document.type, context, country);
  if (agg.documents.some((d) => d.contextType === context)) {
    throw new BadRequestError(`A ${context} document already exists for this verification; delete it first`);
  }
  const front = await decodeImage('document.front_side_data', input.document.front_side_data ?? '', context);
  const backGiven = input.document.back_side_data !== undefined;
  checkSides(type, country, backGiven, backGiven);
  const back = backGiven ? await decodeImage('document.back_side_data', input.document.back_side_data ?? '', context) : null;

  const now = deps.clock.now();
  const id = deps.ids.next('doc');
  const base = { id, verificationId: v.id };
  const frontRef: ImageRef = { key: imageKey(deps, base, 'front'), contentType: front.contentType, sha256: front.sha256 };
  const backRef: ImageRef | null = back ? { key: imageKey(deps, base, 'back'), contentType: back.contentType, sha256: back.sha256 } : null;
  const doc: DocumentRecord = {
    ...base,
    flow: flow.path,
    contextType: context,
    typeId: type.id,
    country,
    status: DocumentStatus.Uploaded,
    front: frontRef,
    back: backRef,
    extractedData: null,
    extractionConfidence: null,
    rules: null,
    decisions: [],
    reportSha256: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const uploads = [{ ref: frontRef, image: front }, ...(back && backRef ? [{ ref: backRef, image: back }] : [])];
  const events = [await documentEvent(deps, flow, doc)];
  await withUploads(deps, uploads, () => deps.documents.create(doc, events));
  await publishCommitted(deps, events);
  return presentDocument(deps, flow, doc);
}

/** A repeat of a create whose document committed but whose response was lost: the created document, as Create shows it. */
export async function presentCreatedDocument(deps: Pick<Deps, 'flows' | 'documents' | 'blobs'>, flowPath: string, id: string) {
  const flow = await requireFlow(deps, flowPath);
  const found = await deps.documents.get(id);
  if (!found) throw new NotFoundError('Document not found');
  return presentDocument(deps, flow, found.document);
}
