import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { httpHandler } from '../../../src/http/handler';
import { route } from '../../../src/http/routes';
import { fakeDeps } from '../../fakes/in-memory';

/** A body must say it is JSON: a browser sends text/plain, form and multipart bodies cross-site without a preflight. */
function post(headers: Record<string, string>, body: string, isBase64Encoded = false): APIGatewayProxyEvent {
  return {
    httpMethod: 'POST',
    path: '/api/v1/default/webhooks',
    pathParameters: { flow: 'default' },
    queryStringParameters: null,
    headers,
    body,
    isBase64Encoded,
    requestContext: { requestId: 'r1', authorizer: { tokenId: 'tok_1', tokenName: 'ci', flows: '*' } },
  } as unknown as APIGatewayProxyEvent;
}
const context = { functionName: 'createWebhook', awsRequestId: 'r1', getRemainingTimeInMillis: () => 29_000 } as unknown as Context;

describe('request bodies', () => {
  const { deps } = fakeDeps();
  let reached = 0;
  const handler = httpHandler(
    route.createWebhook,
    async () => {
      reached += 1;
      return { ok: true };
    },
    { deps: async () => deps },
  );
  const call = async (event: APIGatewayProxyEvent) => (await handler(event, context)) as APIGatewayProxyResult;
  const body = JSON.stringify({ url: 'https://example.com/hooks', events: ['VerificationFinished'] });

  beforeEach(() => {
    reached = 0;
  });

  it.each([
    ['text/plain', { 'Content-Type': 'text/plain' }],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['multipart', { 'Content-Type': 'multipart/form-data; boundary=x' }],
    ['no Content-Type', {}],
  ])('answers 415 to a body sent as %s, before the use case runs', async (_name, headers) => {
    const res = await call(post(headers, body));
    expect(res.statusCode).toBe(415);
    expect(JSON.parse(res.body)).toEqual({ message: 'The request body must be JSON, sent with Content-Type: application/json' });
    expect(reached).toBe(0);
  });

  it.each([['application/json'], ['application/json; charset=utf-8'], ['Application/JSON'], ['application/merge-patch+json']])('reads a body sent as %s', async (type) => {
    const res = await call(post({ 'Content-Type': type }, body));
    expect(res.statusCode).toBe(201);
    expect(reached).toBe(1);
  });

  it('refuses a base64 body that is not valid UTF-8 instead of reading replacement characters', async () => {
    const invalid = Buffer.concat([Buffer.from('{"url":"https://example.com/'), Buffer.from([0xc3, 0x28]), Buffer.from('","events":["VerificationFinished"]}')]);
    const res = await call(post({ 'Content-Type': 'application/json' }, invalid.toString('base64'), true));
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ message: 'The request body is not valid UTF-8' });
    expect(reached).toBe(0);
  });
});
