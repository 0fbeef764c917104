import type { DocumentRecord, ImageRef } from '../domain/entities';
import { BadRequestError, FieldErrorCollector, NotFoundError, WrongFlowError } from '../domain/errors';
import { type ContextType, type DocumentType, type Flow, findTypeById, isCountryAllowed, isDoubleSided } from '../domain/flow';
import type { DocumentWithParent } from '../ports/verification-repository';
import type { Deps } from './deps';
import type { DecodedImage } from './images';
import { requireFlow } from './load';

/** Flow (404), document (404, also when its verification was deleted), then the flow check (400). */
export async function loadDocument(deps: Pick<Deps, 'flows' | 'documents'>, flowPath: string, id: string): Promise<DocumentWithParent & { flow: Flow }> {
  const flow = await requireFlow(deps, flowPath);
  const found = await deps.documents.get(id);
  if (!found) throw new NotFoundError('Document not found');
  if (found.document.flow !== flow.path) throw new WrongFlowError('Document', flow.path, found.document.flow);
  return { ...found, flow };
}

/** The document type for (flow, id, context, country), or a 400 saying why it is not allowed. */
export function allowedType(flow: Flow, typeId: number, context: ContextType, country: string): DocumentType {
  const type = findTypeById(flow, typeId);
  if (!type) throw new BadRequestError(`Document type ${typeId} is not allowed for flow '${flow.path}'`);
  if (type.context_type !== context) {
    throw new BadRequestError(`Document type ${typeId} (${type.name}) is not a ${context} document type`);
  }
  if (!isCountryAllowed(type, country)) throw new BadRequestError(`${type.name} is not accepted for country ${country}`);
  return type;
}

/**
 * Applies the per-country sides rule: a back image is required for double-sided types and must be
 * left out entirely for single-sided ones (422 on document.back_side_data).
 */
export function checkSides(type: DocumentType, country: string, hasBack: boolean, backGiven: boolean): void {
  if (isDoubleSided(type, country)) {
    if (!hasBack) throw new BadRequestError(`document.back_side_data is missing: ${type.name} from ${country} is double-sided`);
  } else if (backGiven) {
    const errors = new FieldErrorCollector();
    errors.add('document.back_side_data', `must be left out: ${type.name} from ${country} is single-sided`);
    errors.throwIfAny();
  }
}

/** Every image key starts with this; the deployed functions' S3 permissions are scoped to it. */
export const IMAGE_PREFIX = 'documents/';

export function imageKey(deps: Pick<Deps, 'ids'>, doc: Pick<DocumentRecord, 'verificationId' | 'id'>, side: 'front' | 'back'): string {
  return `${IMAGE_PREFIX}${doc.verificationId}/${doc.id}/${deps.ids.next('img')}-${side}`;
}

/**
 * Uploads the new images, runs `commit`, and removes the uploads again when the commit fails,
 * so a failed request leaves no orphan object.
 */
export async function withUploads<T>(
  deps: Pick<Deps, 'blobs'>,
  uploads: { ref: ImageRef; image: DecodedImage }[],
  commit: () => Promise<T>,
): Promise<T> {
  const done: string[] = [];
  try {
    for (const u of uploads) {
      await deps.blobs.put(u.ref.key, u.image.bytes, u.image.contentType);
      done.push(u.ref.key);
    }
    return await commit();
  } catch (error) {
    await deps.blobs.delete(done);
    throw error;
  }
}
