import type { Deps, RequestInfo } from './deps';
import { serviceBase } from './present';

/**
 * The contract as served: the checked-in document with `servers` set to this service's base address,
 * the one its own links use, so that a client pointed at the served document calls this deployment.
 */
export function getOpenApi<D extends object>(deps: Pick<Deps, 'publicBaseUrl'>, req: RequestInfo, document: D): D & { servers: { url: string }[] } {
  return { ...document, servers: [{ url: serviceBase(deps, req), description: 'This service' }] };
}
