import type { DocumentRecord } from '../domain/entities';
import type { Deps } from './deps';
import { loadDocument } from './documents';

/** The keys of a document's stored images. */
export function imageKeys(document: DocumentRecord): string[] {
  return [document.front.key, ...(document.back ? [document.back.key] : [])];
}

/**
 * Removes the document (a new one of that context may then be uploaded) and its images. Allowed in
 * any status (spec); a run in flight then finds the context missing and cannot approve.
 */
export async function deleteDocument(deps: Pick<Deps, 'flows' | 'documents' | 'blobs'>, flowPath: string, id: string): Promise<void> {
  const { document } = await loadDocument(deps, flowPath, id);
  await deps.documents.delete(document);
  await deps.blobs.delete(imageKeys(document));
}
