import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forbiddenReason } from '../../../src/adapters/http/address-guard';
import { HttpWebhookSender } from '../../../src/adapters/http/webhook-sender';

describe('address guard', () => {
  it.each(['10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '::'])('refuses %s', (ip) => {
    expect(forbiddenReason(ip, false)).not.toBeNull();
  });

  it('refuses loopback unless allowed, and lets public addresses through', () => {
    expect(forbiddenReason('127.0.0.1', false)).toBe('loopback address');
    expect(forbiddenReason('::1', false)).toBe('loopback address');
    expect(forbiddenReason('127.0.0.1', true)).toBeNull();
    expect(forbiddenReason('93.184.216.34', false)).toBeNull();
    expect(forbiddenReason('2606:2800:220:1::1', false)).toBeNull();
  });
});

describe('HttpWebhookSender', () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url === '/redirect') res.writeHead(302, { Location: 'http://127.0.0.1:1/elsewhere' }).end();
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end(), 500);
      else res.writeHead(204).end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  it('posts to an allowed target and reports its status; redirects are not followed', async () => {
    const sender = new HttpWebhookSender({ timeoutMs: 2000, allowLoopback: true, requireHttps: false });
    expect((await sender.send(`${url}/ok`, {}, '{}')).statusCode).toBe(204);
    expect((await sender.send(`${url}/redirect`, {}, '{}')).statusCode).toBe(302);
    expect(seen).toEqual(['/ok', '/redirect']);
  });

  it('refuses loopback in deployed mode and plain http where https is required', async () => {
    const deployed = new HttpWebhookSender({ timeoutMs: 2000, allowLoopback: false, requireHttps: false });
    expect(await deployed.send(`${url}/ok`, {}, '{}')).toMatchObject({ statusCode: null, error: 'refused: loopback address' });
    const https = new HttpWebhookSender({ timeoutMs: 2000, allowLoopback: true, requireHttps: true });
    expect(await https.send(`${url}/ok`, {}, '{}')).toMatchObject({ statusCode: null, error: 'https required' });
  });

  it('gives up after the timeout', async () => {
    const sender = new HttpWebhookSender({ timeoutMs: 100, allowLoopback: true, requireHttps: false });
    expect(await sender.send(`${url}/slow`, {}, '{}')).toMatchObject({ statusCode: null, error: 'timeout after 100 ms' });
  });
});
