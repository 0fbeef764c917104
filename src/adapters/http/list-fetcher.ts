import type { SourceFetcher } from '../../ports/screening-snapshots';

/**
 * Fetches a list's source file from its publisher: https only, within a time limit, refusing an answer
 * other than 200 and a body larger than `maxBytes` (the OFAC and UN files are a few MB; a much larger
 * one is not the list).
 */
export class HttpsSourceFetcher implements SourceFetcher {
  constructor(private readonly options: { timeoutMs: number; maxBytes: number } = { timeoutMs: 120_000, maxBytes: 200_000_000 }) {}

  async fetch(url: string): Promise<string> {
    if (!/^https:\/\//.test(url)) throw new Error('a list source must be an https URL');
    const res = await fetch(url, { signal: AbortSignal.timeout(this.options.timeoutMs), redirect: 'follow' });
    if (res.status !== 200) throw new Error(`the publisher answered ${res.status}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.byteLength > this.options.maxBytes) throw new Error(`the file is ${bytes.byteLength} bytes, more than ${this.options.maxBytes}`);
    return new TextDecoder('utf-8').decode(bytes);
  }
}
