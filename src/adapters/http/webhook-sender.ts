import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { SendResult, WebhookSender } from '../../ports/webhooks';
import { forbiddenReason } from './address-guard';

export interface SenderOptions {
  /** Total deadline of one delivery, from lookup to the response's last byte (not an idle timeout). */
  timeoutMs: number;
  allowLoopback: boolean;
  requireHttps: boolean;
}

/**
 * POSTs with Node's own client: the host is resolved once, every address checked (SSRF guard),
 * and the connection pinned to the checked address (no DNS rebinding). Redirects are not followed.
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly options: SenderOptions) {}

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = Date.now();
    const done = (statusCode: number | null, error: string | null): SendResult => ({ statusCode, error, durationMs: Date.now() - started });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return done(null, 'invalid URL');
    }
    if (target.protocol !== 'https:' && (this.options.requireHttps || target.protocol !== 'http:')) return done(null, 'https required');
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // One deadline for the whole delivery (lookup, connect, request, response to its last byte):
    // a receiver that trickles bytes cannot hold a delivery longer than this.
    const deadline = started + this.options.timeoutMs;
    const timedOut = () => done(null, `timeout after ${this.options.timeoutMs} ms`);
    let addresses: { address: string; family: number }[] | 'timeout';
    try {
      let timer: NodeJS.Timeout | undefined;
      addresses = await Promise.race([
        lookup(host, { all: true }),
        new Promise<'timeout'>((ok) => {
          timer = setTimeout(() => ok('timeout'), this.options.timeoutMs);
        }),
      ]).finally(() => clearTimeout(timer));
    } catch {
      return done(null, 'host not found');
    }
    if (addresses === 'timeout') return timedOut();
    for (const a of addresses) {
      const reason = forbiddenReason(a.address, this.options.allowLoopback);
      if (reason) return done(null, `refused: ${reason}`);
    }
    const pinned = addresses[0];
    if (!pinned) return done(null, 'host not found');
    const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = send(
        target,
        { method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body).toString() }, lookup: pinnedLookup },
        (res) => {
          res.resume();
          res.on('end', () => finish(done(res.statusCode ?? null, null)));
          res.on('error', () => finish(done(res.statusCode ?? null, null)));
        },
      );
      timer = setTimeout(
        () => {
          finish(timedOut());
          req.destroy();
        },
        Math.max(0, deadline - Date.now()),
      );
      req.on('error', () => finish(done(null, 'connection failed')));
      req.end(body);
    });
  }
}
