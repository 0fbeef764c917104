import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

/**
 * A typed client of the service, generated from its contract: paths, path and query parameters,
 * request bodies and every documented answer are checked by the compiler. `token` is an API token
 * (npm run token); `baseUrl` is the `servers` entry of the served /api/v1/openapi.json.
 */
export function createApiClient(baseUrl: string, token?: string, options: Omit<ClientOptions, 'baseUrl'> = {}) {
  return createClient<paths>({
    ...options,
    baseUrl,
    headers: { Accept: 'application/json', ...(token !== undefined && { Authorization: `Bearer ${token}` }), ...(options.headers as Record<string, string> | undefined) },
  });
}

export type ApiClient = ReturnType<typeof createApiClient>;
