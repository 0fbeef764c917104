import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { SendResult, WebhookSender } from '../../ports/webhooks';
import { forbiddenReason } from './address-guard';

export interface SenderOptions {
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
    let addresses: { address: string; family: number }[];
    try {
      addresses = await lookup(host, { all: true });
    } catch {
      return done(null, 'host not found');
    }
    for (const a of addresses) {
      const reason = forbiddenReason(a.address, this.options.allowLoopback);
      if (reason) return done(null, `refused: ${reason}`);
    }
    const pinned = addresses[0]!;
    const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<SendResult>((resolve) => {
      const req = send(
        target,
        { method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body).toString() }, lookup: pinnedLookup, timeout: this.options.timeoutMs },
        (res) => {
          res.resume();
          res.on('end', () => resolve(done(res.statusCode ?? null, null)));
          res.on('error', () => resolve(done(res.statusCode ?? null, null)));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (e) => resolve(done(null, e.message === 'timeout' ? `timeout after ${this.options.timeoutMs} ms` : 'connection failed')));
      req.end(body);
    });
  }
}
