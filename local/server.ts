import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayTokenAuthorizerEvent, Context } from 'aws-lambda';
import { type RouteDef, routes } from '../src/http/routes';
import { invokeConcurrently } from './invocations';

/** Same cap as Lambda's synchronous request payload. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type Authorizer = (event: APIGatewayTokenAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export interface FrontOptions {
  handlers: Map<string, ApiHandler>;
  authorizer: Authorizer;
  /** Requests under /s3/ (presigned image links). */
  s3: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;
  log: (line: string) => void;
  /**
   * False until every handler, the authorizer and the jobs are installed: until then every request,
   * `/health` included, answers 503 with Retry-After, so that a 200 from `/health` means that a
   * valid token is accepted on every route.
   */
  ready: boolean;
}

interface Match {
  route: RouteDef;
  params: Record<string, string>;
}

/** Matches like API Gateway: static segments win over {placeholders}. */
export function matchRoute(method: string, path: string): Match | undefined {
  const segments = path.split('/').filter(Boolean);
  let best: (Match & { score: number }) | undefined;
  for (const route of routes) {
    if (route.method !== method) continue;
    const parts = route.path.split('/').filter(Boolean);
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    let ok = true;
    parts.forEach((part, i) => {
      const seg = segments[i] ?? '';
      if (part.startsWith('{')) {
        let value = seg;
        try {
          value = decodeURIComponent(seg);
        } catch {
          // left encoded: it will not pass identifier validation and answers 404
        }
        params[part.slice(1, -1)] = value;
      } else if (part === seg) score++;
      else ok = false;
    });
    if (ok && (!best || score > best.score)) best = { route, params, score };
  }
  return best && { route: best.route, params: best.params };
}

/**
 * The path as the access line shows it: the widget's session token (a credential) and anything that
 * matches no route are replaced, so no token reaches a log.
 */
export function loggedPath(method: string, rawPath: string): string {
  const path = rawPath.replace(/\/{2,}/g, '/');
  const match = matchRoute(method, path);
  if (!match) return path.startsWith('/v/') ? '/v/…' : path.slice(0, 200);
  return match.params.token === undefined ? path : match.route.path.replace(/\{(\w+)\}/g, (_all, name: string) => (name === 'token' ? '{token}' : (match.params[name] ?? '')));
}

/** http://<address>:<port> of the socket the request arrived on. */
function ownBase(req: IncomingMessage): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.)/, '');
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, headers);
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }, JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function lambdaContext(requestId: string, name: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 29_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

/**
 * The local stand-in for API Gateway: matches the route table, runs the same TOKEN authorizer,
 * builds a REST API (v1) proxy event and calls the same handler the Lambda runs.
 */
/** Like API Gateway's authorizer result cache: one decision per token for this long. */
export const AUTHORIZER_CACHE_MS = 5 * 60 * 1000;

export function createFront(opts: FrontOptions): Server {
  const authCache = new Map<string, { result: APIGatewayAuthorizerResult; until: number }>();
  const authorize = async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const hit = authCache.get(event.authorizationToken);
    if (hit && hit.until > Date.now()) return hit.result;
    const result = await opts.authorizer(event);
    authCache.set(event.authorizationToken, { result, until: Date.now() + AUTHORIZER_CACHE_MS });
    return result;
  };
  return createServer((req, res) => {
    const started = Date.now();
    const method = req.method ?? 'GET';
    res.on('finish', () => {
      opts.log(`${method} ${loggedPath(method, (req.url ?? '').split('?')[0] ?? '')} ${res.statusCode} ${Date.now() - started}ms`);
    });
    handle(opts, authorize, req, res, method).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { message: 'Internal error' });
      else res.destroy();
    });
  });
}

async function handle(opts: FrontOptions, authorize: Authorizer, req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
  const host = req.headers.host ?? '127.0.0.1';
  const url = new URL(req.url ?? '/', `http://${host}`);
  if (!opts.ready) {
    req.resume();
    res.setHeader('Retry-After', '1');
    return sendJson(res, 503, { message: 'The service is starting: try again in a second' });
  }
  if (url.pathname.startsWith('/s3/')) return opts.s3(req, res, url);

  // "When <flow> is empty or omitted": /api/v1//verifications lists every flow.
  const path = url.pathname.replace(/\/{2,}/g, '/');
  const match = matchRoute(method, path);
  if (!match) {
    req.resume();
    return sendJson(res, 404, { message: 'Not found' });
  }
  const body = await readBody(req);
  if (body === 'too-large') {
    res.setHeader('Connection', 'close');
    sendJson(res, 400, { message: `Request body exceeds the ${MAX_BODY_BYTES / 1024 / 1024} MB limit` });
    req.destroy();
    return;
  }
  const requestId = randomUUID();
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const k = req.rawHeaders[i] ?? '';
    const v = req.rawHeaders[i + 1] ?? '';
    headers[k] = v;
    (multiValueHeaders[k] ??= []).push(v);
  }
  headers['X-Forwarded-Proto'] = 'http';

  let authorizer: Record<string, unknown> | null = null;
  if (match.route.auth) {
    const authHeader = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
    if (!authHeader) return sendJson(res, 401, { message: 'Unauthorized' });
    try {
      const result = await authorize({
        type: 'TOKEN',
        authorizationToken: authHeader,
        methodArn: `arn:aws:execute-api:local:000000000000:local/local/${method}${path}`,
      });
      const allowed = result.policyDocument.Statement.some((s) => s.Effect === 'Allow');
      if (!allowed) return sendJson(res, 403, { message: 'Forbidden' });
      authorizer = { principalId: result.principalId, ...(result.context ?? {}) };
    } catch (error) {
      // As API Gateway: "Unauthorized" is 401; any other authorizer failure is the AUTHORIZER_* gateway response (lib/rest-api.ts).
      if ((error as Error)?.message === 'Unauthorized') return sendJson(res, 401, { message: 'Unauthorized' });
      res.setHeader('Retry-After', '1');
      return sendJson(res, 503, { message: 'The service is busy; retry in a moment' });
    }
  }

  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [k, v] of url.searchParams) {
    query[k] = v;
    (multiQuery[k] ??= []).push(v);
  }
  const event: APIGatewayProxyEvent = {
    resource: match.route.path,
    path,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: Object.keys(query).length ? query : null,
    multiValueQueryStringParameters: Object.keys(multiQuery).length ? multiQuery : null,
    pathParameters: Object.keys(match.params).length ? match.params : null,
    // The front's own address, where this connection arrived (never the client's Host header): the base of links.
    stageVariables: { baseUrl: ownBase(req) },
    body: body.length ? body.toString('utf8') : null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer,
      httpMethod: method,
      identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1' } as APIGatewayProxyEvent['requestContext']['identity'],
      path,
      protocol: 'HTTP/1.1',
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: match.route.path,
      stage: 'local',
      domainName: host,
    },
  };
  const handler = opts.handlers.get(match.route.handler);
  if (!handler) return sendJson(res, 503, { message: 'The service is starting' });
  const result = await invokeConcurrently(requestId, () => handler(event, lambdaContext(requestId, match.route.operation)));
  const outHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) outHeaders[k] = String(v);
  send(res, result.statusCode, outHeaders, result.statusCode === 204 ? '' : result.body);
}
