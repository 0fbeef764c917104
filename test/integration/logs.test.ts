// Log everything: the point is that even at DEBUG nothing personal reaches a log line.
const previousLevel = process.env.POWERTOOLS_LOG_LEVEL;
process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';

import { b64, pdf, png } from '../fixtures/images';

const MARKERS = ['Zyxmarker', 'Qwobblefritz', '1931-07-13', 'Markerstrasse 99', 'MK-987654321', '99099'];

describe('logs never carry personal data, images or tokens', () => {
  const lines: string[] = [];
  const originals = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  let stop: (() => Promise<void>) | undefined;

  beforeAll(() => {
    const capture = (chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    };
    process.stdout.write = capture as typeof process.stdout.write;
    process.stderr.write = capture as typeof process.stderr.write;
  });
  afterAll(async () => {
    await stop?.();
    process.stdout.write = originals.out;
    process.stderr.write = originals.err;
    // The environment is shared by the test files that run after this one.
    if (previousLevel === undefined) delete process.env.POWERTOOLS_LOG_LEVEL;
    else process.env.POWERTOOLS_LOG_LEVEL = previousLevel;
  });

  it('runs the whole flow with marker data and finds it in no log line', async () => {
    const { startTestRuntime, client } = await import('./harness');
    // The local front's access lines are captured too: they are what `npm start` prints.
    const h = await startTestRuntime({ webhookRetry: { baseSeconds: 0.01, maxAgeSeconds: 0.2 }, log: (line) => process.stdout.write(`${line}\n`) });
    stop = h.stop;
    const logged: string[] = [];
    const api = client(h.runtime);
    const person = { first_name: 'Zyxmarker', last_name: 'Qwobblefritz', date_of_birth: '1931-07-13' };
    const body = {
      person,
      address: { street: 'Markerstrasse 99', city: 'Berlin', postal_code: '99099', country: 'DEU' },
      documents: { photo_id: { type: 'Passport', number: 'MK-987654321', country: 'DEU' }, proof_of_address: { type: 'Utility Bill', country: 'DEU' } },
    };
    const created = await api('POST', '/api/v1/default/verifications', body);
    expect(created.status).toBe(201);
    const v = created.body.data.id;
    // The widget's session token is a credential: every widget route carries it in the path.
    const session = new URL(created.body.data.url).pathname.split('/')[2] ?? '';
    expect(session.length).toBeGreaterThan(20);
    for (const path of ['', '/', '/session', '/qr', '/nowhere', '/documents/doc_unknown']) {
      await fetch(`${h.runtime.url}/v/${session}${path}`, { method: path.startsWith('/documents') ? 'DELETE' : 'GET' });
    }
    const image = png(16, 16, 3, { person: { given_names: 'Zyxmarker', surname: 'Qwobblefritz', date_of_birth: '1931-07-13' }, document: { number: 'MK-987654321', expiration_date: '2031-01-01' } });
    await api('POST', '/api/v1/default/webhooks', { url: 'http://127.0.0.1:9/nowhere', events: ['VerificationFinished'] });
    await api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'DEU', front_side_data: b64(image) } });
    await api('POST', '/api/v1/default/documents', {
      verification: v,
      document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'DEU', front_side_data: b64(pdf({ person: { full_name: 'Zyxmarker Qwobblefritz' }, address: { full: 'Markerstrasse 99 99099 Berlin' } })) },
    });
    // Errors, with personal data in the rejected input.
    await api('POST', '/api/v1/default/verifications', { ...body, address: { ...body.address, country: 'Zyxmarker' } });
    await api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'SELFIE', type: 6, country: 'DEU', front_side_data: 'Qwobblefritz!!' } });
    await api('PATCH', `/api/v1/default/verifications/${v}`, { person: { first_name: 'Zyxmarker' }, status: 5 });
    await api('PUT', `/api/v1/default/verifications/${v}/submit`);
    await h.runtime.idle();
    await api('GET', `/api/v1/default/verifications/${v}`);
    await api('PUT', `/api/v1/default/verifications/${v}/approve`, { comment: 'ok', email: 'reviewer@example.com' });
    await api('GET', `/api/v1/default/documents/${(await api('GET', `/api/v1/default/verifications/${v}`)).body.data.documents[0].id}/pdf`);
    await h.runtime.idle();
    logged.push(...lines);
    const text = logged.join('\n');
    // The flow did log, with ids, so the check is not vacuous.
    expect(logged.length).toBeGreaterThan(10);
    expect(text).toContain(v);
    for (const marker of MARKERS) expect([marker, text.includes(marker)]).toEqual([marker, false]);
    expect(text).not.toContain(session);
    expect(text).not.toContain(h.runtime.token);
    expect(text).toContain('/v/{token}/session');
    expect(text).not.toContain(b64(image).slice(0, 40));
  });
});
