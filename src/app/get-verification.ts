import type { Deps, RequestInfo } from './deps';
import { loadVerification } from './load';
import { presentAggregate } from './present';

/** The verification with documents (signed links), comments and history: one Query on its partition. */
export async function getVerification(deps: Pick<Deps, 'flows' | 'verifications' | 'blobs' | 'sessionSecret' | 'publicBaseUrl'>, req: RequestInfo, flowPath: string, id: string) {
  const { flow, aggregate } = await loadVerification(deps, flowPath, id);
  return presentAggregate(deps, req, flow, aggregate);
}
