import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiClient, createApiClient } from '../../client';
import { type Runtime, type RuntimeOptions, startRuntime } from '../../local/runtime';
import { expectMatchesContract, expectRequestMatchesContract } from './contract';

export interface ApiResponse {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/** Starts the local runtime on 127.0.0.1, port 0, in-memory DynamoDB, temp data dir. */
export async function startTestRuntime(options: Partial<RuntimeOptions> = {}): Promise<{ runtime: Runtime; dataDir: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-test-'));
  const runtime = await startRuntime({ host: '127.0.0.1', port: 0, dataDir, inMemory: true, extractor: 'sandbox', ...options });
  return {
    runtime,
    dataDir,
    stop: async () => {
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function client(runtime: Runtime) {
  return async function api(method: string, path: string, body?: unknown, opts: { token?: string | null; raw?: string; skipContract?: boolean } = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = opts.token === undefined ? runtime.token : opts.token;
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (opts.raw !== undefined) payload = opts.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${runtime.url}${path}`, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    // Every response the integration tests see is checked against the OpenAPI document.
    if (opts.token !== null && !opts.skipContract) {
      expectMatchesContract(method, path, res.status, parsed);
      if (opts.raw === undefined) expectRequestMatchesContract(method, path, res.status, body);
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  };
}

/**
 * The typed client generated from the contract (client/), as a user builds it, with every answer
 * checked against the contract as `api` does.
 */
export function typedClient(runtime: Runtime): ApiClient {
  const api = createApiClient(runtime.url, runtime.token);
  api.use({
    async onResponse({ request, response }) {
      const text = await response.clone().text();
      expectMatchesContract(request.method, new URL(request.url).pathname, response.status, text ? JSON.parse(text) : undefined);
    },
  });
  return api;
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export const defaultBody = () => ({
  vendor_reference: 'ref-1',
  person: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-12-10' },
  address: { street: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'usa' },
  documents: {
    photo_id: { type: 'Passport', number: 'P123', country: 'gbr' },
    proof_of_address: { type: 'Utility Bill', country: 'USA' },
  },
});

/** Registers beforeAll/afterAll for one runtime per test file; read `h`, `api` and `client` inside tests. */
export function useTestRuntime() {
  const state = {} as { h: Awaited<ReturnType<typeof startTestRuntime>>; api: ReturnType<typeof client>; client: ApiClient };
  beforeAll(async () => {
    state.h = await startTestRuntime();
    state.api = client(state.h.runtime);
    state.client = typedClient(state.h.runtime);
  });
  afterAll(async () => {
    await state.h?.stop();
  });
  return state;
}

/** The image files the local S3 server holds, for one verification or for all. */
export function storedImages(dataDir: string, verificationId?: string): string[] {
  const root = join(dataDir, 's3', 'idv-local-images', 'documents', ...(verificationId ? [verificationId] : []));
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: string[] = [];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.endsWith('._S3rver_object')) out.push(p);
    }
  };
  walk(root);
  return out;
}
