import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forbiddenReason } from '../../../src/adapters/http/address-guard';
import { HttpWebhookSender } from '../../../src/adapters/http/webhook-sender';

describe('address guard', () => {
  it.each(['10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '::'])('refuses %s', (ip) => {
    expect(forbiddenReason(ip, false)).not.toBeNull();
  });

  // Private, loopback and metadata addresses written in every IPv6 form that carries an IPv4 address.
  it.each([
    ['IPv4-mapped, dotted', '::ffff:10.0.0.1'],
    ['IPv4-mapped, hex', '::ffff:a00:1'],
    ['IPv4-mapped, expanded', '0:0:0:0:0:ffff:169.254.169.254'],
    ['IPv4-compatible, dotted', '::10.0.0.1'],
    ['IPv4-compatible, hex', '::a9fe:a9fe'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['NAT64 well-known prefix', '64:ff9b::192.168.1.1'],
    ['NAT64, hex', '64:ff9b::a9fe:a9fe'],
    ['NAT64 loopback', '64:ff9b::7f00:1'],
    ['NAT64 local-use prefix', '64:ff9b:1::1'],
    ['SIIT (::ffff:0:0:0/96)', '::ffff:0:10.1.2.3'],
    ['SIIT, hex', '::ffff:0:ac10:1'],
    ['6to4 of 10.0.0.1', '2002:a00:1::'],
    ['6to4 of the metadata service', '2002:a9fe:a9fe::1'],
    ['6to4 of loopback', '2002:7f00:1::'],
    ['Teredo client 192.168.0.1', '2001:0:4136:e378:8000:63bf:3f57:fffe'],
    ['site-local', 'fec0::1'],
    ['with a zone id', 'fe80::1%eth0'],
  ])('refuses %s (%s)', (_form, ip) => {
    expect(forbiddenReason(ip, false)).not.toBeNull();
  });

  it.each([
    ['NAT64 of a public address', '64:ff9b::93.184.216.34'],
    ['6to4 of a public address', '2002:5db8:d822::1'],
    ['IPv4-mapped public address', '::ffff:93.184.216.34'],
  ])('lets %s through (%s)', (_form, ip) => {
    expect(forbiddenReason(ip, false)).toBeNull();
  });

  it('treats embedded loopback as loopback where loopback is allowed', () => {
    expect(forbiddenReason('::ffff:127.0.0.1', false)).toBe('loopback address');
    expect(forbiddenReason('64:ff9b::127.0.0.1', false)).toBe('loopback address');
    expect(forbiddenReason('::ffff:127.0.0.1', true)).toBeNull();
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
      else if (req.url === '/trickle') {
        // Headers at once, then one byte every 50 ms for 3 s: never idle, never done in time.
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        let sent = 0;
        const drip = setInterval(() => {
          if (res.destroyed || ++sent > 60) {
            clearInterval(drip);
            res.end();
          } else res.write('.');
        }, 50);
        res.on('close', () => clearInterval(drip));
      }
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

  it('gives up at a total deadline when the receiver trickles bytes (not an idle timeout)', async () => {
    const sender = new HttpWebhookSender({ timeoutMs: 300, allowLoopback: true, requireHttps: false });
    const result = await sender.send(`${url}/trickle`, {}, '{}');
    expect(result).toMatchObject({ statusCode: null, error: 'timeout after 300 ms' });
    expect(result.durationMs).toBeLessThan(1000);
  });

  it('gives up after the timeout', async () => {
    const sender = new HttpWebhookSender({ timeoutMs: 100, allowLoopback: true, requireHttps: false });
    expect(await sender.send(`${url}/slow`, {}, '{}')).toMatchObject({ statusCode: null, error: 'timeout after 100 ms' });
  });
});
