import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

/** AWS credentials as the SDK resolves them (the token CLI takes them from its DynamoDB client). */
export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface ApiKeysOptions {
  region: string;
  credentials: () => Promise<SigningCredentials>;
  /** Default: API Gateway's regional management endpoint. */
  endpoint?: string;
}

/** The API key of a token: named after it, its value the token's id (what the authorizer returns as `usageIdentifierKey`). */
export const apiKeyName = (tokenName: string) => `idv-token-${tokenName}`;

/**
 * API keys of usage plans, through API Gateway's management API (signed HTTP: the project carries no
 * API Gateway SDK client for a command run by hand).
 */
export class ApiGatewayKeys {
  private readonly endpoint: URL;
  private readonly signer: SignatureV4;

  constructor(options: ApiKeysOptions) {
    this.endpoint = new URL(options.endpoint ?? `https://apigateway.${options.region}.amazonaws.com`);
    this.signer = new SignatureV4({ service: 'apigateway', region: options.region, credentials: options.credentials, sha256: Sha256 });
  }

  /** Creates the token's API key and adds it to the usage plan; returns the key's id. */
  async create(tokenName: string, tokenId: string, usagePlanId: string): Promise<string> {
    const key = (await this.send('POST', '/apikeys', { name: apiKeyName(tokenName), value: tokenId, enabled: true, description: 'Meters one API token of the identity-verification service' })) as { id: string };
    try {
      await this.send('POST', `/usageplans/${encodeURIComponent(usagePlanId)}/keys`, { keyId: key.id, keyType: 'API_KEY' });
    } catch (error) {
      await this.send('DELETE', `/apikeys/${encodeURIComponent(key.id)}`);
      throw error;
    }
    return key.id;
  }

  /** Deletes the API keys of a token name (which removes them from their plans); returns how many. */
  async remove(tokenName: string): Promise<number> {
    const found = (await this.send('GET', '/apikeys', undefined, { name: apiKeyName(tokenName), limit: '500' })) as { item?: { id: string; name: string }[] };
    const keys = (found.item ?? []).filter((k) => k.name === apiKeyName(tokenName));
    for (const k of keys) await this.send('DELETE', `/apikeys/${encodeURIComponent(k.id)}`);
    return keys.length;
  }

  private async send(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<unknown> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const signed = await this.signer.sign({
      method,
      protocol: this.endpoint.protocol,
      hostname: this.endpoint.hostname,
      ...(this.endpoint.port && { port: Number(this.endpoint.port) }),
      path,
      query,
      headers: { host: this.endpoint.host, accept: 'application/json', ...(payload !== undefined && { 'content-type': 'application/json' }) },
      ...(payload !== undefined && { body: payload }),
    });
    const url = new URL(path, this.endpoint);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const headers = Object.fromEntries(Object.entries(signed.headers).filter(([k]) => k !== 'host'));
    const response = await fetch(url, { method, headers, ...(payload !== undefined && { body: payload }) });
    const text = await response.text();
    if (!response.ok) throw new Error(`API Gateway ${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : {};
  }
}
