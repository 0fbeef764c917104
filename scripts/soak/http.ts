/**
 * The soak's HTTP client: every request recorded (method, path, key, status, latency, ids returned), a client-side timeout a little past the budget so that a hang is measured and not waited
 * out, and the retry loop of a careful client on routes that take an Idempotency-Key.
 */
import type { Rng } from '../documents/identity';
import { type Outcome, type RequestRecord, retryable } from './invariants';

/** What the soak's clients share: where to send, how long to wait, where to write what happened. */
export interface HttpContext {
  base: string;
  token: string;
  budgetMs: number;
  records: RequestRecord[];
  /** performance.now() when the traffic started. */
  startedAt: number;
}

export interface Answer {
  status: Outcome;
  // The answer's JSON, unchecked: the soak reads only a few fields of it.
  body: any;
  message?: string;
  retryAfterMs?: number;
}

/** How long past the budget the client waits before giving a request up (the excess is measured). */
export const TIMEOUT_GRACE_MS = 5000;
/** A careful client's give-up limit for one key: attempts and total time (past the 60 s stale-claim limit). */
export const MAX_ATTEMPTS = 10;
export const GIVE_UP_MS = 150_000;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One request, unrecorded: the answer, or why there was none (timeout, connection failed). */
export async function request(base: string, token: string, method: string, path: string, body: unknown, timeoutMs: number, key?: string): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (key) headers['Idempotency-Key'] = key;
  try {
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const retryAfter = Number(res.headers.get('retry-after'));
    return {
      status: res.status,
      body: parsed,
      message: res.status >= 300 && typeof parsed?.message === 'string' ? parsed.message : undefined,
      retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
    };
  } catch (error) {
    const name = (error as Error)?.name;
    return { status: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network', body: undefined };
  }
}

/** Sends one request and records it; `extra` adds what the caller knows (key, reference, intent). */
export async function send(
  ctx: HttpContext,
  worker: number,
  route: string,
  method: string,
  path: string,
  body?: unknown,
  extra: Partial<RequestRecord> = {},
): Promise<{ answer: Answer; record: RequestRecord }> {
  const t0 = performance.now();
  const answer = await request(ctx.base, ctx.token, method, path, body, ctx.budgetMs + TIMEOUT_GRACE_MS, extra.key);
  const latencyMs = performance.now() - t0;
  const returnedId = typeof answer.body?.data?.id === 'string' ? (answer.body.data.id as string) : undefined;
  const record: RequestRecord = {
    seq: ctx.records.length + 1,
    worker,
    route,
    method,
    path,
    attempt: 1,
    status: answer.status,
    latencyMs,
    atMs: t0 - ctx.startedAt,
    ...(answer.message && { message: answer.message }),
    ...(returnedId && { returnedId }),
    ...extra,
  };
  ctx.records.push(record);
  return { answer, record };
}

/**
 * A careful client on a route that takes an Idempotency-Key: the same body and the same key again
 * after no answer, a 5xx or "still being processed", with jittered exponential backoff (at least the
 * Retry-After asked for), until another answer or the give-up limit.
 */
export async function sendIdempotent(
  ctx: HttpContext,
  rng: Rng,
  worker: number,
  route: string,
  method: string,
  path: string,
  body: unknown,
  extra: Partial<RequestRecord> & { key: string },
): Promise<{ answer: Answer; record: RequestRecord }> {
  const start = Date.now();
  for (let attempt = 1; ; attempt++) {
    const out = await send(ctx, worker, route, method, path, body, { ...extra, attempt });
    if (!retryable(out.answer.status, out.answer.message) || attempt >= MAX_ATTEMPTS || Date.now() - start > GIVE_UP_MS) return out;
    const backoff = Math.min(30_000, 500 * 2 ** (attempt - 1)) * (0.5 + rng() / 2);
    await sleep(Math.max(backoff, out.answer.retryAfterMs ?? 0));
  }
}
