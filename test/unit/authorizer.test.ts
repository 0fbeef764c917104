import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizerResult } from '../../src/http/authorizer-result';
import { tokenIdOf } from '../../src/app/authorize';
import { hashToken } from '../../src/app/tokens';
import { ApiGatewayKeys, apiKeyName } from '../../scripts/api-keys';

const principal = { tokenName: 'backoffice', tokenId: tokenIdOf(hashToken('s3cret-token')), flows: '*', reviewer: 'false' as const };
const ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/api/v1/verifications';

describe('authorizer and usage plans', () => {
  it("names the token's API key (its id) only when usage plans meter the API", () => {
    const metered = authorizerResult(principal, ARN, true);
    expect(metered.usageIdentifierKey).toBe(principal.tokenId);
    expect(metered.usageIdentifierKey).toMatch(/^tok_[0-9a-f]{32}$/);
    expect(authorizerResult(principal, ARN, false).usageIdentifierKey).toBeUndefined();
    // What the handlers read from the request context: a reviewer token's name is the acting user.
    expect(authorizerResult({ ...principal, reviewer: 'true' }, ARN, false).context).toEqual({ tokenName: 'backoffice', tokenId: principal.tokenId, flows: '*', reviewer: 'true' });
    expect(metered.policyDocument.Statement).toEqual([{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*' }]);
  });

  it('reads USAGE_PLAN_KEYS once, as the usageKeys port of the authorizer', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { TABLE_NAME: 't', BUCKET_NAME: 'b', USAGE_PLAN_KEYS: 'true' });
    try {
      const { getDeps } = await import('../../src/container');
      expect((await getDeps(['usageKeys'])).usageKeys).toBe(true);
    } finally {
      for (const k of ['TABLE_NAME', 'BUCKET_NAME', 'USAGE_PLAN_KEYS']) if (saved[k] === undefined) delete process.env[k];
    }
  });
});

describe('token CLI API keys (API Gateway management API over signed HTTP)', () => {
  /** A stand-in for API Gateway's management endpoint that records what it is asked. */
  async function gateway(fail?: RegExp) {
    const calls: { method: string; url: string; body: unknown; authorization: string }[] = [];
    const keys = new Map<string, string>();
    const server = createServer(async (req: IncomingMessage, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      const body = text ? JSON.parse(text) : undefined;
      calls.push({ method: req.method ?? '', url: req.url ?? '', body, authorization: String(req.headers.authorization) });
      const reply = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (fail?.test(`${req.method} ${req.url}`)) return reply(400, { message: 'Invalid usage plan' });
      if (req.method === 'POST' && req.url === '/apikeys') {
        const id = `key${keys.size + 1}`;
        keys.set(id, body.name);
        return reply(201, { id, name: body.name });
      }
      if (req.method === 'GET' && req.url?.startsWith('/apikeys?')) return reply(200, { item: [...keys].map(([id, name]) => ({ id, name })) });
      if (req.method === 'DELETE') {
        keys.delete(req.url!.split('/').pop()!);
        return reply(202, {});
      }
      return reply(201, {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const client = new ApiGatewayKeys({
      region: 'eu-west-1',
      credentials: async () => ({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }),
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
    return { calls, keys, client, close: () => new Promise((r) => server.close(r)) };
  }

  it("creates the token's key with its id as value, adds it to the plan, and revoke deletes it; every request SigV4-signed for apigateway", async () => {
    const g = await gateway();
    try {
      expect(await g.client.create('backoffice', principal.tokenId, 'plan42')).toBe('key1');
      expect(await g.client.remove('backoffice')).toBe(1);
      expect(g.calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /apikeys', 'POST /usageplans/plan42/keys', `GET /apikeys?name=${apiKeyName('backoffice')}&limit=500`, 'DELETE /apikeys/key1']);
      expect(g.calls[0]!.body).toMatchObject({ name: 'idv-token-backoffice', value: principal.tokenId, enabled: true });
      expect(g.calls[1]!.body).toEqual({ keyId: 'key1', keyType: 'API_KEY' });
      for (const c of g.calls) expect(c.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/apigateway\/aws4_request, SignedHeaders=.*host.*, Signature=[0-9a-f]{64}$/);
      expect(g.keys.size).toBe(0);
    } finally {
      await g.close();
    }
  });

  it('leaves no key behind when the plan refuses it', async () => {
    const g = await gateway(/^POST \/usageplans\//);
    try {
      await expect(g.client.create('backoffice', principal.tokenId, 'nope')).rejects.toThrow('400');
      expect(g.keys.size).toBe(0);
    } finally {
      await g.close();
    }
  });
});
