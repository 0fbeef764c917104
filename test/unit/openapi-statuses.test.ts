import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import Ajv2020 from 'ajv/dist/2020';
import { buildOpenApi } from '../../scripts/openapi';
import { httpHandler } from '../../src/http/handler';
import { route, type RouteDef, routes } from '../../src/http/routes';
import { fakeDeps } from '../fakes/in-memory';

/**
 * Every status an operation can answer is in the contract, with the error body's schema and an
 * example of it. The statuses are derived here again from the route record alone (what the handler
 * stack, the authorizer and the adapters answer for it), not from the generator's own list.
 */
const doc = buildOpenApi() as { paths: Record<string, Record<string, { responses: Record<string, any> }>>; components: { schemas: Record<string, unknown> } };
const responsesOf = (r: RouteDef) => doc.paths[r.path]![r.method.toLowerCase()]!.responses;

function answeredStatuses(r: RouteDef): number[] {
  // Every operation runs in the one handler stack, which answers an unexpected error 500; deployed,
  // API Gateway throttles every method first (429, lib/rest-api.ts).
  const statuses = new Set([r.status, 500, 429]);
  const params = [...r.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
  // The authorizer: no valid token 401; the token store unreadable 503; a flow-limited token 404
  // elsewhere (a route marked ownFlows answers it for its own flows instead).
  if (r.auth) [401, 503].forEach((s) => statuses.add(s));
  if (r.auth && !('ownFlows' in r && r.ownFlows)) statuses.add(404);
  // Any backing service down or throttling (the adapters translate it): 503.
  if (r.needs.table || r.needs.images) statuses.add(503);
  // A path parameter that is no identifier, or names nothing: 404.
  if (params.length > 0) statuses.add(404);
  // A resource of another flow than the path's: 400.
  if (params.includes('flow') && (params.includes('verificationId') || params.includes('documentId'))) statuses.add(400);
  // A body: malformed JSON 400, not sent as JSON 415, invalid 422.
  if (r.body) [400, 415, 422].forEach((s) => statuses.add(s));
  // Idempotency-Key: bad syntax or still in progress 400, reused with another request 422.
  if (r.idempotent) [400, 422].forEach((s) => statuses.add(s));
  // A write that lost to a concurrent one after the use case's retries (ConflictError): 400.
  if (r.needs.table === 'write') statuses.add(400);
  return [...statuses].sort();
}

describe('the statuses of every operation', () => {
  it.each(routes.map((r) => [r.operation, r] as const))('%s documents every status it can answer', (_operation, r) => {
    const documented = Object.keys(responsesOf(r)).map(Number);
    expect(answeredStatuses(r).filter((s) => !documented.includes(s))).toEqual([]);
  });

  it('documents no status the service never answers (no 403: other flows are hidden as 404)', () => {
    const all = new Set(routes.flatMap((r) => Object.keys(responsesOf(r))));
    expect([...all].sort()).toEqual(['200', '201', '204', '400', '401', '404', '415', '422', '429', '500', '503']);
  });

  it('gives every error its body schema and examples that match it', () => {
    const ajv = new Ajv2020({ strict: true });
    ajv.addSchema({ $id: 'openapi', $defs: JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', 'openapi#/$defs/')) });
    const problems: string[] = [];
    for (const r of routes) {
      for (const [status, response] of Object.entries(responsesOf(r))) {
        if (Number(status) < 400) continue;
        const content = response.content?.['application/json'];
        const examples = content?.examples ? Object.values(content.examples as Record<string, { value: unknown }>).map((e) => e.value) : [content?.example];
        const ref = String(content?.schema?.$ref ?? '').replace('#/components/schemas/', 'openapi#/$defs/');
        if (!ref || examples.length === 0) problems.push(`${r.operation} ${status}: no schema or example`);
        for (const example of examples) if (ref && !ajv.validate({ $ref: ref }, example)) problems.push(`${r.operation} ${status}: ${JSON.stringify(example)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('shows the reused Idempotency-Key 422 on every idempotent operation', () => {
    for (const r of routes.filter((x) => x.idempotent)) {
      const examples = Object.values(responsesOf(r)['422'].content['application/json'].examples as Record<string, { value: { errors: Record<string, string[]> } }>);
      expect(examples.some((e) => e.value.errors['Idempotency-Key']?.[0] === 'was already used for a different request')).toBe(true);
    }
  });
});

describe('an operation without a body', () => {
  it('ignores a malformed one, as its contract (no 400) says', async () => {
    const { deps } = fakeDeps();
    const handler = httpHandler(route.getFlowConfiguration, async () => ({ path: 'default' }), { deps: async () => deps });
    const event = {
      httpMethod: 'GET',
      path: '/api/v1/default/configuration',
      pathParameters: { flow: 'default' },
      queryStringParameters: null,
      headers: {},
      body: '{not json',
      isBase64Encoded: false,
      requestContext: { requestId: 'req-1', authorizer: { tokenId: 'tok_1', flows: '*' } },
    } as unknown as APIGatewayProxyEvent;
    const response = await handler(event, { awsRequestId: 'req-1', functionName: 'getFlowConfiguration' } as Context);
    expect(response.statusCode).toBe(200);
    expect(responsesOf(route.getFlowConfiguration)['400']).toBeUndefined();
  });
});
