import { generatedTexts } from '../../lib/served-files';
import { b64, pdf, png } from '../fixtures/images';
import { expectMatchesContract } from './contract';
import { defaultBody, useTestRuntime } from './harness';

const t = useTestRuntime();

/** A request as the widget page makes it: no API token, the session token in the path. */
async function widget(method: string, path: string, body?: unknown) {
  const res = await fetch(`${t.h.runtime.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('application/json') && text ? JSON.parse(text) : undefined;
  if (json !== undefined || res.status === 204) expectMatchesContract(method, path, res.status, json);
  return { status: res.status, text, json, headers: res.headers };
}

async function newSession() {
  const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
  return { id: v.id as string, path: new URL(v.url).pathname, qr: new URL(v.qr_code).pathname };
}

const photo = { person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' }, document: { number: 'P123', expiration_date: '2031-01-01' } };
const bill = { person: { full_name: 'Ada Lovelace' }, address: { full: '1 Main St Austin TX 78701', country: 'USA' } };

describe('end-user widget', () => {
  it('serves its page, script and QR code from the service, under a strict CSP', async () => {
    const s = await newSession();
    const page = await widget('GET', s.path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    expect(page.text).toContain('<script src="../widget/widget.js" defer></script>');
    // No inline script or style, and nothing loaded from another origin (a link the person may follow, such as the privacy notice, is not a load).
    expect(page.text).not.toMatch(/<script>|style=|(src|srcset|action)="https?:\/\/|<link[^>]+href="https?:\/\//);
    expect(page.text).toContain('href="https://example.com/privacy"');
    // The same bytes as deployed: the local runtime writes the asset function's files with the stack's writer.
    const texts = generatedTexts('src/web/asset-texts.ts');
    for (const [name, type] of [['widget.js', 'text/javascript; charset=utf-8'], ['widget.css', 'text/css; charset=utf-8'], ['console.js', 'text/javascript; charset=utf-8'], ['console.css', 'text/css; charset=utf-8']]) {
      const asset = await widget('GET', `/widget/${name}`);
      expect([name, asset.status, asset.headers.get('content-type'), asset.headers.get('cache-control'), asset.text === texts[name!]]).toEqual([name, 200, type, 'public, max-age=300', true]);
    }
    expect((await widget('GET', '/widget/nope.js')).status).toBe(404);
    expect((await widget('GET', '/widget/widget.en.json')).status).toBe(404);
    const qr = await widget('GET', s.qr);
    expect(qr.headers.get('content-type')).toBe('image/svg+xml');
    expect(qr.text.startsWith('<svg')).toBe(true);
  });

  it('lets the person upload and submit, shows progress, and never shows the expected data', async () => {
    const s = await newSession();
    const session = await widget('GET', `${s.path}/session`);
    expect(session.json.data).toMatchObject({ status_label: 'Started', open: true, flow: 'Default', required_contexts: ['PHOTO_ID', 'PROOF_OF_ADDRESS'] });
    expect(session.text).not.toMatch(/Lovelace|P123|Main St/);
    // Of the expected data, only the documents' issuing countries, to preselect.
    expect(session.json.data.contexts.map((c: any) => [c.context_type, c.expected_country])).toEqual([['PHOTO_ID', 'GBR'], ['PROOF_OF_ADDRESS', 'USA'], ['SELFIE', null]]);
    expect((await widget('PUT', `${s.path}/submit`)).status).toBe(400);
    const a = await widget('POST', `${s.path}/documents`, { document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(8, 8, 1, photo)) } });
    expect(a.status).toBe(201);
    const wrong = await widget('POST', `${s.path}/documents`, { document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: 'nope!!' } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toMatch(/not valid base64/);
    await widget('POST', `${s.path}/documents`, { document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(pdf(bill)) } });
    expect((await widget('GET', `${s.path}/session`)).json.data.documents.map((d: any) => d.context_type).sort()).toEqual(['PHOTO_ID', 'PROOF_OF_ADDRESS']);
    expect((await widget('PUT', `${s.path}/submit`)).json.data.status_label).toBe('Submitted');
    // Closed for changes once submitted, still readable for the outcome.
    const late = await widget('POST', `${s.path}/documents`, { document: { context_type: 'SELFIE', type: 6, country: 'GBR', front_side_data: b64(png()) } });
    expect(late.status).toBe(400);
    await t.h.runtime.idle();
    expect((await widget('GET', `${s.path}/session`)).json.data).toMatchObject({ status_label: 'Approved', open: false });
  });

  it('tells in plain words, on the link page, that a canceled verification takes no more documents', async () => {
    const s = await newSession();
    await t.api('PUT', `/api/v1/default/verifications/${s.id}/cancel`, { comment: 'duplicate', email: 'reviewer@example.com' });
    const page = await widget('GET', s.path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page.text).toContain('This verification was canceled, so this link no longer works. Ask the company that sent you this link for a new one.');
    expect(page.text).not.toContain('<script');
  });

  it('reaches only its own verification; unknown tokens are not found', async () => {
    const mine = await newSession();
    const other = await newSession();
    const theirs = (await t.api('POST', '/api/v1/default/documents', { verification: other.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png()) } })).body.data.id;
    expect((await widget('DELETE', `${mine.path}/documents/${theirs}`)).status).toBe(404);
    expect((await t.api('GET', `/api/v1/default/documents/${theirs}`)).status).toBe(200);
    const fake = `/v/${'A'.repeat(43)}`;
    for (const [method, path] of [
      ['GET', fake],
      ['GET', `${fake}/session`],
      ['GET', `${fake}/qr`],
      ['PUT', `${fake}/submit`],
      ['GET', '/v/short'],
    ]) {
      expect([path, (await widget(method!, path!)).status]).toEqual([path, 404]);
    }
    // The page of an unknown link is a page in plain words, not JSON.
    const unknown = await widget('GET', fake);
    expect(unknown.headers.get('content-type')).toMatch(/text\/html/);
    expect(unknown.text).toContain('Ask the company that sent you this link for a new one.');
    // The API token is never needed by, nor given to, the page.
    expect((await widget('GET', mine.path)).text).not.toContain(t.h.runtime.token);
  });

  it('gives the page its flow\'s settings and, once a reviewer reopens it without a document, which one and why', async () => {
    const body = defaultBody() as { documents: Record<string, unknown> };
    delete body.documents.proof_of_address;
    const v = (await t.api('POST', '/api/v1/photo-id/verifications', body)).body.data;
    const path = new URL(v.url).pathname;
    const first = (await widget('GET', `${path}/session`)).json.data;
    expect(first.appearance).toMatchObject({ primary_color: '#0f6e5a', return_url: 'https://example.com/account' });
    expect(first.appearance.intro.es).toMatch(/^Example Bank necesita/);
    expect(first.requested_again).toBeNull();
    const doc = (await widget('POST', `${path}/documents`, { document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(8, 8, 1, photo)) } })).json.data;
    expect((await widget('PUT', `${path}/submit`)).status).toBe(200);
    const reason = 'The photo is cut off: show the whole page.';
    expect((await t.api('PATCH', `/api/v1/photo-id/verifications/${v.id}`, { status: 1, comment: reason, email: 'reviewer@example.com' })).status).toBe(200);
    // Reopened with its documents still there: nothing is asked again yet.
    expect((await widget('GET', `${path}/session`)).json.data.requested_again).toEqual({ contexts: [], reason });
    expect((await t.api('DELETE', `/api/v1/photo-id/documents/${doc.id}`)).status).toBe(204);
    expect((await widget('GET', `${path}/session`)).json.data.requested_again).toEqual({ contexts: ['PHOTO_ID'], reason });
    // The default flow has no settings: all null.
    const other = await newSession();
    expect((await widget('GET', `${other.path}/session`)).json.data.appearance).toEqual({ intro: null, consent: null, primary_color: null, return_url: null });
  });

  it('says in the session what was read at upload, per field group, without a single value; a selfie is read after Submit', async () => {
    const s = await newSession();
    const mrz = [
      { field: 'person.surname', value: 'LOVELACE', source: 'mrz' },
      { field: 'document.number', value: 'P123', source: 'mrz' },
    ];
    const upload = async (document: unknown) => (await widget('POST', `${s.path}/documents`, { document })).json.data.id as string;
    const passport = await upload({ context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(8, 8, 1, { ...photo, readings: mrz })) });
    const billId = await upload({ context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(pdf(bill)) });
    const selfie = await upload({ context_type: 'SELFIE', type: 6, country: 'GBR', front_side_data: b64(png()) });
    await t.h.runtime.idle();
    const session = await widget('GET', `${s.path}/session`);
    const reading = (id: string) => session.json.data.documents.find((d: any) => d.id === id).reading;
    expect(reading(passport)).toEqual({
      state: 'read', recognised: true, machine_readable: 'valid',
      fields: [{ group: 'name', status: 'found' }, { group: 'date_of_birth', status: 'found' }, { group: 'document_number', status: 'found' }, { group: 'expiration_date', status: 'found' }],
    });
    expect(reading(billId)).toMatchObject({ state: 'read', recognised: true, machine_readable: null, fields: [{ group: 'name', status: 'found' }, { group: 'address', status: 'found' }] });
    expect(reading(selfie)).toEqual({ state: 'after_submit', recognised: null, machine_readable: null, fields: [] });
    // No personal value in the answer: names, numbers, dates, the address.
    expect(session.text).not.toMatch(/Lovelace|LOVELACE|P123|1990|2031|Main St|Austin/i);
    // Submitted: the session reads nothing more for the page.
    expect((await widget('PUT', `${s.path}/submit`)).status).toBe(200);
    expect((await widget('GET', `${s.path}/session`)).json.data.documents.map((d: any) => d.reading)).toEqual([null, null, null]);
  });

  it('says a sharp picture with no document on it was not read, and an unclear machine-readable zone as unclear', async () => {
    const s = await newSession();
    const readingOf = async (id: string) => (await widget('GET', `${s.path}/session`)).json.data.documents.find((d: any) => d.id === id).reading;
    // A picture without anything the extractor can read (the sandbox: no payload).
    const blank = (await widget('POST', `${s.path}/documents`, { document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(900, 600)) } })).json.data.id;
    await t.h.runtime.idle();
    expect(await readingOf(blank)).toEqual({
      state: 'read', recognised: false, machine_readable: null,
      fields: [{ group: 'name', status: 'not_found' }, { group: 'date_of_birth', status: 'not_found' }, { group: 'document_number', status: 'not_found' }, { group: 'expiration_date', status: 'not_found' }],
    });
    expect((await widget('DELETE', `${s.path}/documents/${blank}`)).status).toBe(204);
    // Read below the rules' min_confidence (0.6): unclear, not found.
    const low = { ...photo, confidence: 0.3, readings: [{ field: 'document.number', value: 'P123', source: 'mrz' }] };
    const dim = (await widget('POST', `${s.path}/documents`, { document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(900, 600, 1, low)) } })).json.data.id;
    await t.h.runtime.idle();
    expect(await readingOf(dim)).toMatchObject({ state: 'read', recognised: true, machine_readable: 'unclear', fields: expect.arrayContaining([{ group: 'document_number', status: 'unclear' }]) });
  });

  it('answers the page in the language asked for, and says which in Content-Language', async () => {
    const s = await newSession();
    const res = await fetch(`${t.h.runtime.url}${s.path}`, { headers: { 'Accept-Language': 'de-CH, fr;q=0.8' } });
    expect(res.headers.get('content-language')).toBe('de');
    expect(await res.text()).toContain('<html lang="de">');
    const chosen = await fetch(`${t.h.runtime.url}${s.path}?lang=es`, { headers: { 'Accept-Language': 'de' } });
    expect(await chosen.text()).toContain('<html lang="es">');
  });
});
