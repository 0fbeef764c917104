import type { APIGatewayProxyEvent } from 'aws-lambda';
import checkedIn from '../../../openapi/openapi.json';
import { getOpenApi } from '../../../src/app/get-openapi';
import { loadConfig } from '../../../src/config';
import { requestInfo } from '../../../src/http/handler';

const event = (over: { headers?: Record<string, string>; domainName?: string; path?: string; stagePath?: string; stageVariables?: Record<string, string> | null }) =>
  ({
    path: over.path ?? '/api/v1/default/verifications',
    headers: over.headers ?? {},
    stageVariables: over.stageVariables ?? null,
    requestContext: { domainName: over.domainName, path: over.stagePath ?? over.path ?? '/api/v1/default/verifications' },
  }) as unknown as APIGatewayProxyEvent;

describe('the base of url / qr_code and list links', () => {
  it('ignores the client-controlled Host and X-Forwarded-Proto headers', () => {
    const info = requestInfo(
      event({ headers: { Host: 'evil.example', 'X-Forwarded-Proto': 'javascript' }, domainName: 'abc.execute-api.eu-west-1.amazonaws.com', stagePath: '/prod/api/v1/default/verifications' }),
    );
    expect(info.baseUrl).toBe('https://abc.execute-api.eu-west-1.amazonaws.com/prod');
  });

  it('uses the local front’s own base when it sets one, and only an http(s) one', () => {
    expect(requestInfo(event({ stageVariables: { baseUrl: 'http://127.0.0.1:3000' }, domainName: 'x.example' })).baseUrl).toBe('http://127.0.0.1:3000');
    expect(requestInfo(event({ stageVariables: { baseUrl: 'javascript://evil.example' }, domainName: 'x.example' })).baseUrl).toBe('https://x.example');
  });

  it('refuses a domain that is not a host name', () => {
    expect(requestInfo(event({ domainName: 'evil.example/#' })).baseUrl).toBe('https://localhost');
  });

  it('accepts only an http or https PUBLIC_BASE_URL', () => {
    const env = { TABLE_NAME: 't', BUCKET_NAME: 'b', RUNTIME: 'local', SESSION_SECRET: 's' };
    expect(loadConfig({ ...env, PUBLIC_BASE_URL: 'https://verify.example.com' }).PUBLIC_BASE_URL).toBe('https://verify.example.com');
    for (const bad of ['javascript://evil.example/%0aalert(1)', 'data:text/html,x', 'ftp://verify.example.com', 'https://user:pw@verify.example.com', 'https://verify.example.com/?q=1']) {
      expect(() => loadConfig({ ...env, PUBLIC_BASE_URL: bad })).toThrow(/PUBLIC_BASE_URL/);
    }
  });

  it('is the server of the served OpenAPI document: PUBLIC_BASE_URL when configured, else the API address with its stage', () => {
    const deployed = requestInfo(event({ domainName: 'abc.execute-api.eu-west-1.amazonaws.com', path: '/api/v1/openapi.json', stagePath: '/prod/api/v1/openapi.json' }));
    expect(getOpenApi({ publicBaseUrl: undefined }, deployed, checkedIn).servers).toEqual([{ url: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod', description: 'This service' }]);
    expect(getOpenApi({ publicBaseUrl: 'https://verify.example.com/' }, deployed, checkedIn).servers).toEqual([{ url: 'https://verify.example.com', description: 'This service' }]);
    const local = requestInfo(event({ stageVariables: { baseUrl: 'http://127.0.0.1:41234' }, path: '/api/v1/openapi.json' }));
    expect(getOpenApi({ publicBaseUrl: undefined }, local, checkedIn)).toEqual({ ...checkedIn, servers: [{ url: 'http://127.0.0.1:41234', description: 'This service' }] });
  });
});
