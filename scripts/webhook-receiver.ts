/**
 * npm run webhook-receiver [-- --port 8080 --secret-file samples/webhook-secret --pid-file samples/receiver.pid]: a webhook receiver
 * for trying the service on your machine. Listens on 127.0.0.1 only, answers 204 to every POST,
 * and prints one line per delivery: event type, verification id and status, and whether the
 * signature verifies with the subscription's secret (read from the file at each delivery, so the
 * receiver can start before the subscription exists). Never prints the body (it carries personal data).
 * `--pid-file` records the id of the process that listens (npm and tsx do not pass a kill on to it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { verifySignature } from '../src/app/webhooks';

const { values } = parseArgs({ options: { port: { type: 'string', default: '8080' }, 'secret-file': { type: 'string', default: 'samples/webhook-secret' }, 'pid-file': { type: 'string' } } });

function secret(): string | undefined {
  try {
    return readFileSync(values['secret-file'] as string, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    const key = secret();
    const header = String(req.headers['x-webhook-signature'] ?? '');
    const verdict = !key ? 'no secret yet' : verifySignature(key, header, raw, Math.floor(Date.now() / 1000)) ? 'signature valid' : 'SIGNATURE INVALID';
    let summary = '';
    try {
      const event = JSON.parse(raw) as { type?: string; data?: { verification?: { id?: string; status_label?: string } } };
      const v = event.data?.verification;
      summary = `${event.type} ${v?.id ?? ''} ${v?.status_label ?? ''}`.trim();
    } catch {
      summary = 'not JSON';
    }
    console.log(`${new Date().toISOString()} ${req.method} ${req.url} ${summary} (${verdict}, id ${req.headers['x-webhook-id'] ?? '-'})`);
    res.writeHead(req.method === 'POST' ? 204 : 405).end();
  });
});

if (values['pid-file']) writeFileSync(values['pid-file'], `${process.pid}\n`);
server.listen(Number(values.port), '127.0.0.1', () => console.log(`webhook receiver on http://127.0.0.1:${values.port}/ (secret from ${values['secret-file']})`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
