import type { Deps } from './deps';
import { loadDocument } from './documents';
import { presentDocument } from './present';

export async function getDocument(deps: Pick<Deps, 'flows' | 'documents' | 'blobs'>, flowPath: string, id: string) {
  const { flow, document } = await loadDocument(deps, flowPath, id);
  return presentDocument(deps, flow, document);
}
