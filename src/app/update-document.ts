import type { DocumentRecord, ImageRef } from '../domain/entities';
import { BadRequestError, InvalidStateError } from '../domain/errors';
import { type ContextType, isDoubleSided } from '../domain/flow';
import { type DocumentStatus, DocumentStatus as DS, VerificationStatus, documentStatusLabel } from '../domain/status';
import type { Deps } from './deps';
import { allowedType, checkSides, imageKey, loadDocument, withUploads } from './documents';
import { documentEvent, publishCommitted } from './events';
import { decodeImage } from './images';
import { presentDocumentCore } from './present';

export interface UpdateDocumentInput {
  verification: string;
  status?: DocumentStatus | undefined;
  document?:
    | {
        context_type?: ContextType | undefined;
        type?: number | undefined;
        country?: string | undefined;
        front_side_data?: string | undefined;
        back_side_data?: string | undefined;
      }
    | undefined;
}

/**
 * Changes only the provided fields while the document is Uploaded and its verification Started.
 * Replaced images are written under new keys first and the old ones removed only after the commit.
 */
export async function updateDocument(deps: Pick<Deps, 'flows' | 'documents' | 'blobs' | 'clock' | 'ids' | 'events' | 'outbox'>, flowPath: string, id: string, input: UpdateDocumentInput) {
  const { flow, document: prev, verification } = await loadDocument(deps, flowPath, id);
  if (input.verification !== prev.verificationId) {
    throw new BadRequestError('Document does not belong to the given verification');
  }
  if (verification.status !== VerificationStatus.Started) throw new InvalidStateError('Verification is not in Started status');
  if (prev.status !== DS.Uploaded) {
    throw new InvalidStateError(`Document is not in Uploaded status (current status: ${documentStatusLabel(prev.status)})`);
  }

  const patch = input.document ?? {};
  const context = patch.context_type ?? prev.contextType;
  const country = patch.country ?? prev.country;
  const type = allowedType(flow, patch.type ?? prev.typeId, context, country);
  const front = patch.front_side_data !== undefined ? await decodeImage('document.front_side_data', patch.front_side_data, context) : null;
  const back = patch.back_side_data !== undefined ? await decodeImage('document.back_side_data', patch.back_side_data, context) : null;
  if (!front && prev.front.contentType === 'application/pdf' && context !== 'PROOF_OF_ADDRESS') {
    throw new BadRequestError('The stored front image is a PDF, which is accepted only for PROOF_OF_ADDRESS documents');
  }
  const backGiven = patch.back_side_data !== undefined;
  checkSides(type, country, backGiven || prev.back !== null, backGiven);

  const frontRef: ImageRef = front ? { key: imageKey(deps, prev, 'front'), contentType: front.contentType, sha256: front.sha256 } : prev.front;
  let backRef: ImageRef | null = back ? { key: imageKey(deps, prev, 'back'), contentType: back.contentType, sha256: back.sha256 } : prev.back;
  // A type or country that became single-sided drops the stored back image.
  if (!backGiven && backRef && !isDoubleSided(type, country)) backRef = null;

  const next: DocumentRecord = {
    ...prev,
    contextType: context,
    typeId: type.id,
    country,
    status: input.status ?? prev.status,
    front: frontRef,
    back: backRef,
    updatedAt: deps.clock.now(),
    version: prev.version + 1,
  };
  const uploads = [
    ...(front ? [{ ref: frontRef, image: front }] : []),
    ...(back && backRef ? [{ ref: backRef, image: back }] : []),
  ];
  const events = [await documentEvent(deps, flow, next)];
  await withUploads(deps, uploads, () => deps.documents.update(prev, next, events));
  const replaced = [prev.front, prev.back].filter((r): r is ImageRef => r !== null && r !== next.front && r !== next.back);
  await deps.blobs.delete(replaced.map((r) => r.key));
  await publishCommitted(deps, events);
  return presentDocumentCore(deps, next);
}
