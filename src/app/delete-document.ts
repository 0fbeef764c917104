import type { Deps } from './deps';
import { loadDocument } from './documents';

/** Removes the document (a new one of that context may then be uploaded) and its images. */
export async function deleteDocument(deps: Deps, flowPath: string, id: string): Promise<void> {
  const { document } = await loadDocument(deps, flowPath, id);
  await deps.documents.delete(document);
  await deps.blobs.delete([document.front.key, ...(document.back ? [document.back.key] : [])]);
}
