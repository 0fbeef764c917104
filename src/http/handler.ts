import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import * as v from 'valibot';
import type { Caller, Deps, RequestInfo } from '../app/deps';
import { createHash } from 'node:crypto';
import type { HeldClaim } from '../ports/idempotency';
import { BadRequestError, NotFoundError, UnsupportedMediaTypeError, ValidationError, WrongFlowError } from '../domain/errors';
import { REQUEST_BUDGET_MS, withinBudget } from '../clients';
import { getDeps } from '../container';
import { logger } from '../logger';
import { errorHeaders, toErrorResponse } from './errors';
import { type DeclaredPorts, type Operation, type PathParams, type Port, portsOf, type route, type RouteSpec, routes } from './routes';
import { type BodyName, type BodyOutput, bodySchema, parseBody, requestSchemas } from './schemas';

export interface HttpRequest<B, P = Record<string, string>> {
  params: P;
  query: Record<string, string | undefined>;
  body: B;
  info: RequestInfo;
  /** The request path ends with `/` (`/v/<token>/`): a page then finds its assets one level further up. */
  trailingSlash: boolean;
  /** The Accept-Language header, for pages in the person's language. */
  acceptLanguage: string;
}

type Event = APIGatewayProxyEvent & {
  parsedBody?: unknown;
  /** The Idempotency-Key claim this request holds: the use case runs guarded by it (its commit records the key). */
  idempotencyClaim?: HeldClaim;
  /** A repeat of a request whose change committed but whose response was lost: answered from this resource. */
  idempotentReplayOf?: string;
};

const SECURITY_HEADERS = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
};

export function json(statusCode: number, body: unknown): APIGatewayProxyResult {
  return statusCode === 204
    ? { statusCode, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain' }, body: '' }
    : { statusCode, headers: SECURITY_HEADERS, body: JSON.stringify(body) };
}

/** `application/json`, with or without parameters (`; charset=utf-8`); `+json` media types too. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json\s*(;.*)?$/i;

/**
 * Our own JSON body parser: malformed JSON is a 400 with a JSON message (middy's stock one answers
 * 415/plain text). Only operations that take a body read one: any other ignores what is sent, as
 * its contract says. A body must say it is JSON (415 otherwise): a browser sends `text/plain`,
 * form or multipart bodies cross-site without a preflight, `application/json` never, so no page
 * of another site can make a person's browser write through the widget's session link. A base64
 * body that is not valid UTF-8 is refused rather than read with replacement characters.
 */
const jsonBody = (takesBody: boolean): middy.MiddlewareObj<Event, APIGatewayProxyResult> => ({
  before: (request) => {
    if (!takesBody) return;
    const { body, isBase64Encoded, headers } = request.event;
    if (body === null || body === undefined || body === '') return;
    const contentType = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType.trim())) {
      throw new UnsupportedMediaTypeError('The request body must be JSON, sent with Content-Type: application/json');
    }
    let text: string;
    try {
      text = isBase64Encoded ? new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(body, 'base64')) : body;
    } catch {
      throw new BadRequestError('The request body is not valid UTF-8');
    }
    if (text.trim() === '') return;
    try {
      request.event.parsedBody = JSON.parse(text);
    } catch {
      throw new BadRequestError('Malformed JSON in request body');
    }
  },
});

/**
 * The path parameters an access line may carry: resource ids only. The widget's session `token` is
 * a credential (it opens the verification to whoever holds it) and is never logged.
 */
const LOGGED_PARAMS = ['flow', 'verificationId', 'documentId', 'webhookId', 'asset'] as const;

function loggedParams(event: Event): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of LOGGED_PARAMS) {
    const value = event.pathParameters?.[name];
    if (value !== undefined) out[name] = value.slice(0, 100);
  }
  return out;
}

/**
 * What our middlewares remember about one request. It lives on middy's `request.internal`, a new
 * object per invocation: a closure of the middleware factory is shared by every invocation of the
 * handler, and the local front runs them concurrently.
 */
interface RequestState {
  started: number;
}

type Request = middy.Request<Event, APIGatewayProxyResult, Error, Context>;

const STATE = 'idv:request';

function state(request: Request): RequestState {
  const internal = request.internal as Record<string, unknown>;
  internal[STATE] ??= { started: performance.now() };
  return internal[STATE] as RequestState;
}

/**
 * One log line per request: operation, ids, status and duration; never the body nor a token. The
 * operation and request id are written on the line itself (not only as appended keys, which the
 * process-wide logger shares between the concurrent requests of the local front).
 */
function logRequest(request: Request, operation: string): void {
  logger.info('request', {
    operation,
    requestId: request.event.requestContext?.requestId,
    statusCode: request.response?.statusCode,
    durationMs: Math.round(performance.now() - state(request).started),
    ...loggedParams(request.event),
  });
}

const accessLog = (operation: string): middy.MiddlewareObj<Event, APIGatewayProxyResult> => ({
  before: (request) => {
    state(request).started = performance.now();
    logger.appendKeys({ operation, requestId: request.event.requestContext?.requestId });
  },
  after: (request) => logRequest(request, operation),
  onError: (request) => logRequest(request, operation),
});

/**
 * Idempotency-Key on every POST and action PUT (routes marked `idempotent`): scoped to the caller
 * (the token's unique id, never its name) and operation, claimed only after the path and the flow
 * scope were checked (the `scope` middleware runs first), remembered 24 hours; a repeat of the same
 * request gets the first response (with `Idempotent-Replayed: true`), the same key on a different
 * request is 422. The key is recorded as committed in the same transaction as the change it protects
 * (the use case runs guarded by the claim), so whatever fails after the commit (the response write,
 * the function itself) a retry is answered from what was committed and never repeats the change.
 * A request that failed before committing (5xx) releases its claim, so it can be retried.
 */
const idempotency = (operation: string, deps: () => Promise<Pick<Deps, 'idempotency'>>): middy.MiddlewareObj<Event, APIGatewayProxyResult> => {
  const enabled = routes.some((r) => r.operation === operation && r.idempotent);
  const store = async () => (await deps()).idempotency;
  /** Writing the outcome down must not turn an answered request into a 500: the committed marker already protects a retry. */
  const settle = async (what: 'complete' | 'release', write: () => Promise<void>) => {
    try {
      await write();
    } catch (error) {
      logger.warn('idempotency record not updated', { operation, step: what, errorName: (error as Error)?.name });
    }
  };
  return {
    before: async (request) => {
      if (!enabled) return undefined;
      const key = Object.entries(request.event.headers ?? {}).find(([k]) => k.toLowerCase() === 'idempotency-key')?.[1];
      if (key === undefined) return undefined;
      if (!v.is(requestSchemas().IdempotencyKey, key)) throw new BadRequestError('Idempotency-Key must be 1 to 255 visible ASCII characters');
      const authorizer = request.event.requestContext?.authorizer;
      const principal = String(authorizer?.tokenId ?? 'anonymous');
      const scope = `${principal}#${operation}`;
      const hash = createHash('sha256')
        .update(`${request.event.httpMethod} ${request.event.path}\n${request.event.body ?? ''}`)
        .digest('hex');
      const claim = await (await store()).claim(scope, key, hash);
      if (claim.state === 'mismatch') throw new ValidationError({ 'Idempotency-Key': ['was already used for a different request'] });
      if (claim.state === 'in-progress') throw new BadRequestError('A request with this Idempotency-Key is still being processed; retry shortly');
      if (claim.state === 'committed') {
        request.event.idempotentReplayOf = claim.resource;
        return undefined;
      }
      if (claim.state === 'replay') {
        const { statusCode, body } = claim.response;
        const replayed = { ...json(statusCode, {}), body, headers: { ...SECURITY_HEADERS, ...(statusCode === 204 && { 'Content-Type': 'text/plain' }), ...REPLAYED } };
        // An early response skips every `after`: the access line is written here, and the keys reset.
        request.response = replayed;
        logRequest(request, operation);
        logger.resetKeys();
        return replayed;
      }
      request.event.idempotencyClaim = claim.claim;
      return undefined;
    },
    after: async (request) => {
      const claimed = request.event.idempotencyClaim;
      const response = request.response;
      if (claimed && response) await settle('complete', async () => (await store()).complete(claimed, { statusCode: response.statusCode, body: response.body }));
    },
    onError: async (request) => {
      const claimed = request.event.idempotencyClaim;
      if (!claimed) return;
      const response = request.response;
      if (response && response.statusCode < 500) await settle('complete', async () => (await store()).complete(claimed, { statusCode: response.statusCode, body: response.body }));
      else await settle('release', async () => (await store()).release(claimed));
    },
  };
};

const REPLAYED = { 'Idempotent-Replayed': 'true' };

/** Maps every error to the documented JSON body; unknown errors are logged (name and stack, never the request) and answered 500. */
const errorsAsJson = (operation: string): middy.MiddlewareObj<Event, APIGatewayProxyResult> => ({
  onError: (request) => {
    const mapped = toErrorResponse(request.error);
    if (mapped.unexpected) {
      const error = request.error as Error;
      logger.error('unhandled error', { operation, errorName: error?.name, stack: error?.stack });
    }
    const response = json(mapped.statusCode, mapped.body);
    request.response = { ...response, headers: { ...response.headers, ...errorHeaders(mapped.statusCode, mapped.retryAfter) } };
  },
});

/** Path parameters that cannot be an identifier are simply not found (and never reach DynamoDB). */
const ID = /^[A-Za-z0-9_.-]{1,100}$/;
const NOT_FOUND_BY_PARAM: Record<string, string> = {
  flow: 'Flow not found',
  verificationId: 'Verification not found',
  documentId: 'Document not found',
  webhookId: 'Webhook not found',
  token: 'Session not found',
  asset: 'Not found',
};

const HOST_NAME = /^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$/;

/**
 * The service's own base URL, from values the client cannot set: never the Host or
 * X-Forwarded-Proto headers (a client could make `url`/`qr_code` point anywhere, `javascript:`
 * included). Deployed: https, API Gateway's `domainName` and the stage prefix of its `path`.
 * Locally: the `baseUrl` stage variable the local front sets to its own address.
 */
export function requestInfo(event: APIGatewayProxyEvent): RequestInfo {
  const caller = callerOf(event);
  const local = event.stageVariables?.baseUrl;
  if (local !== undefined && /^https?:\/\/[^/?#]+$/.test(local)) return { baseUrl: local, ...(caller && { caller }) };
  const domain = event.requestContext?.domainName;
  const host = domain && HOST_NAME.test(domain) ? domain : 'localhost';
  const full = event.requestContext?.path ?? event.path;
  const prefix = full.endsWith(event.path) ? full.slice(0, full.length - event.path.length) : '';
  return { baseUrl: `https://${host}${/^(\/[\w-]+)?$/.test(prefix) ? prefix : ''}`, ...(caller && { caller }) };
}

/** The token behind the request, from the authorizer's context (authenticated routes only). */
function callerOf(event: APIGatewayProxyEvent): Caller | undefined {
  const a = event.requestContext?.authorizer;
  if (!a || typeof a.tokenName !== 'string') return undefined;
  return { name: a.tokenName, reviewer: a.reviewer === 'true', flows: allowedFlows(event as Event) ?? '*' };
}

/**
 * A named reviewer token acts as itself (routes marked `actor`): its name fills in the acting
 * e-mail, and a body naming someone else is refused, so history records who really acted.
 */
function actingAsReviewer(event: Event, raw: unknown): unknown {
  const caller = callerOf(event);
  if (!caller?.reviewer || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const given = (raw as Record<string, unknown>).email;
  if (given !== undefined && (typeof given !== 'string' || given.trim().toLowerCase() !== caller.name.toLowerCase())) {
    throw new ValidationError({ email: [`must be left out: this reviewer token acts as ${caller.name}`] });
  }
  return { ...raw, email: caller.name };
}

/** The flows the caller's token is limited to, or undefined when it may use every flow. */
function allowedFlows(event: Event): string[] | undefined {
  const scope = event.requestContext?.authorizer?.flows;
  if (scope === undefined || scope === null || scope === '*') return undefined;
  return String(scope).split(',');
}

/**
 * Tokens may be limited to some flows: another flow is simply not found for them (404), and the
 * all-flows list is not available to them.
 */
function checkFlowScope(event: Event, flow: string | undefined, ownFlows: boolean): void {
  const allowed = allowedFlows(event);
  if (allowed === undefined) return;
  if (flow === undefined) {
    if (ownFlows) return;
    throw new NotFoundError('Not found: this token is limited to some flows; use /api/v1/<flow>/… paths');
  }
  if (!allowed.includes(flow)) throw new NotFoundError(`Flow '${flow}' not found`);
}

/** Path parameters that cannot be an identifier answer 404 (and never reach DynamoDB). */
function pathParams(event: Event): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.pathParameters ?? {})) {
    if (!value || !ID.test(value)) throw new NotFoundError(NOT_FOUND_BY_PARAM[name] ?? 'Not found');
    params[name] = value;
  }
  return params;
}

/** Path and flow scope, checked before anything else looks at the request (idempotency included). */
const scope = (ownFlows: boolean): middy.MiddlewareObj<Event, APIGatewayProxyResult> => ({
  before: (request) => {
    checkFlowScope(request.event, pathParams(request.event).flow, ownFlows);
  },
});

/**
 * The spec answers 400 for a resource of another flow. A token limited to some flows gets 404 for a
 * resource of a flow outside them, exactly as for an id that does not exist: otherwise the 400
 * would tell it that the id exists in a flow it may not see.
 */
function hideOtherFlows(event: Event, error: unknown): unknown {
  const allowed = allowedFlows(event);
  if (allowed === undefined || !(error instanceof WrongFlowError) || allowed.includes(error.actualFlow)) return error;
  return new NotFoundError(`${error.resource} not found`);
}

/** A non-JSON response body; `statusCode` when not the route's (a page that says "not found"). */
export interface RawResult {
  statusCode?: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

type Route<O extends Operation> = (typeof route)[O];
/** The validated body of an operation: the output of its `body` schema, or undefined. */
type BodyOf<O extends Operation> = Route<O> extends { body: infer N extends BodyName } ? BodyOutput<N> : undefined;
/** What an operation's use case is handed: the ports its route declares, nothing else. */
export type RouteDeps<O extends Operation> = Pick<Deps, DeclaredPorts<O>>;

/**
 * What an idempotent operation answers to a repeat of a request whose change committed but whose
 * response was never stored: the same shape, derived from the resource the commit recorded (the
 * created id, or the verification the action changed).
 */
export type Replay<T extends Route<Operation>, R> = (
  deps: RouteDeps<T['operation']>,
  req: HttpRequest<BodyOf<T['operation']>, PathParams<T['path']>>,
  resource: string,
) => Promise<R>;

export interface HandlerOptions<T extends Route<Operation>, R> {
  /** Builds the ports the route declares (tests pass their fakes). */
  deps?: (ports: readonly Port[]) => Promise<Partial<Deps>>;
  /** Required by every idempotent route (a test holds the route table to it). */
  replay?: Replay<T, R>;
}

/**
 * The one middy stack of every API function: Powertools' Lambda context on every log line
 * (`cold_start`, `function_request_id`), JSON body parsing, domain errors → HTTP, a log line with
 * ids only. Everything about the operation (status, body schema, envelope, content type,
 * idempotency, the ports it may use) comes from its record in the route table; `run` calls one use
 * case with the ports the route declares (any other port throws) and path parameters typed from
 * the route's path template. An idempotent route's use case runs guarded by its request's claim.
 */
export function httpHandler<T extends Route<Operation>, R>(
  r: T,
  run: (deps: RouteDeps<T['operation']>, req: HttpRequest<BodyOf<T['operation']>, PathParams<T['path']>>) => Promise<R>,
  options: HandlerOptions<T, R> = {},
) {
  type O = T['operation'];
  const { deps = getDeps, replay } = options;
  const spec: RouteSpec = r;
  const ports = portsOf(spec);
  const handler = middy<Event, APIGatewayProxyResult, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(accessLog(r.operation))
    .use(scope(spec.ownFlows === true))
    .use(idempotency(r.operation, async () => (await deps(['idempotency'])) as Pick<Deps, 'idempotency'>))
    .use(errorsAsJson(r.operation))
    .use(jsonBody(spec.body !== undefined))
    .handler(async (event) => {
      const params = pathParams(event) as PathParams<T['path']>;
      // No body at all reads as `{}`; a body that is JSON but not an object (`null`, `[]`, `1`) is refused.
      const raw = event.parsedBody === undefined ? {} : event.parsedBody;
      const body = (spec.body ? parseBody(bodySchema(spec.body), spec.actor ? actingAsReviewer(event, raw) : raw) : undefined) as BodyOf<O>;
      const ported = (await deps(ports)) as RouteDeps<O>;
      const req = {
        params,
        query: event.queryStringParameters ?? {},
        body,
        info: requestInfo(event),
        trailingSlash: event.path.length > 1 && event.path.endsWith('/'),
        acceptLanguage: Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === 'accept-language')?.[1] ?? '',
      };
      const { idempotencyClaim: claim, idempotentReplayOf: replayOf } = event;
      const work =
        replayOf !== undefined
          ? () => {
              if (!replay) throw new Error(`${r.operation} is idempotent but has no replay`);
              return replay(ported, req, replayOf);
            }
          : claim !== undefined
            ? async () => (await deps(['idempotency'])).idempotency!.guard(claim, () => run(ported, req))
            : () => run(ported, req);
      const result = await work().catch((error: unknown) => {
        throw hideOtherFlows(event, error);
      });
      if (spec.contentType) {
        const { statusCode = spec.status, contentType, body: text, headers } = result as unknown as RawResult;
        return { statusCode, headers: { ...SECURITY_HEADERS, 'Content-Type': contentType, ...headers }, body: text };
      }
      const answer = json(spec.status, spec.envelope === false ? result : { data: result });
      return replayOf !== undefined ? { ...answer, headers: { ...answer.headers, ...REPLAYED } } : answer;
    });
  // The whole request, idempotency claim and release included, within its budget: an answer (503 at worst) before
  // the function's timeout and API Gateway's 29 s, however slowly the table answers each call.
  const bounded = (event: Event, context: Context) => withinBudget(REQUEST_BUDGET_MS, () => handler(event, context));
  return Object.assign(bounded, handler, { replays: replay !== undefined });
}
