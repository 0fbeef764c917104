import sharp from 'sharp';
import { expectedData, generateDocument } from '../../scripts/documents/generate';
import { useNpmStart } from './npm-start';

/**
 * The widget's upload-time reading with the extractor `npm start` runs by default (offline): what the
 * page is told is what that extractor read, per field group, and it names no machine-readable zone it
 * does not report. Its engines load ES modules jest cannot, hence `npm start` in its own process.
 */
const started = useNpmStart();

async function api(method: string, path: string, body?: unknown, auth = true): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(`${started.url}${path}`, {
    method,
    headers: { ...(auth && { Authorization: `Bearer ${started.token}` }), 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

/** Uploads through the widget and reads the session as the page does until the document is read, for up to 90 s. */
async function readingAfterUpload(session: string, document: Record<string, unknown>) {
  const up = await api('POST', `${session}/documents`, { document }, false);
  expect(up.status).toBe(201);
  for (let i = 0; i < 360; i++) {
    const r = await api('GET', `${session}/session`, undefined, false);
    expect(r.status).toBe(200);
    const reading = r.body.data.documents.find((d: { id: string }) => d.id === up.body.data.id).reading;
    if (reading.state !== 'pending') return { data: reading, text: r.text };
    await new Promise((ok) => setTimeout(ok, 250));
  }
  throw new Error('still pending after 90 s');
}

describe('the widget reading with the offline extractor (npm start)', () => {
  it('says a generated passport (its MRZ found and valid) and bill were read, no value shown, and a card-like picture with nothing on it not', async () => {
    const passport = await generateDocument('passport', 'photographed', 11);
    const bill = await generateDocument('utility-bill', 'photographed', 12, undefined, passport.identity);
    const created = await api('POST', '/api/v1/default/verifications', { vendor_reference: 'widget-offline', ...expectedData(passport, bill) });
    expect(created.status).toBe(201);
    const session = new URL(created.body.data.url).pathname;

    const read = await readingAfterUpload(session, { context_type: 'PHOTO_ID', type: 1, country: passport.country, front_side_data: passport.front.toString('base64') });
    // The offline extractor names the MRZ as the source of what it read (readings beside the printed zone's).
    expect(read.data).toMatchObject({ state: 'read', recognised: true, machine_readable: 'valid' });
    expect(read.data.fields).toEqual([
      { group: 'name', status: 'found' },
      { group: 'date_of_birth', status: 'found' },
      { group: 'document_number', status: 'found' },
      { group: 'expiration_date', status: 'found' },
    ]);
    const values = [passport.identity.surname, passport.identity.documentNumber, passport.identity.dateOfBirth].filter((x) => typeof x === 'string' && x.length > 2);
    for (const value of values) expect(read.text).not.toContain(value);

    const billRead = await readingAfterUpload(session, { context_type: 'PROOF_OF_ADDRESS', type: 4, country: bill.country, front_side_data: bill.front.toString('base64') });
    expect(billRead.data).toMatchObject({ state: 'read', fields: [{ group: 'name', status: 'found' }, { group: 'address', status: 'found' }] });

    // A sharp picture of a card with no text on it: nothing read, said so.
    const other = await api('POST', '/api/v1/default/verifications', { vendor_reference: 'widget-offline-2', ...expectedData(passport, bill) });
    const blankCard = await sharp(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000"><rect width="1600" height="1000" fill="#8a8f98"/><rect x="60" y="60" width="1480" height="880" rx="40" fill="#e9eef2"/><rect x="100" y="150" width="360" height="460" fill="#9a7a63"/></svg>'),
    ).jpeg().toBuffer();
    const nothing = await readingAfterUpload(new URL(other.body.data.url).pathname, { context_type: 'PHOTO_ID', type: 1, country: passport.country, front_side_data: blankCard.toString('base64') });
    expect(nothing.data).toMatchObject({ state: 'read', recognised: false, machine_readable: null });
    expect(nothing.data.fields.every((f: { status: string }) => f.status === 'not_found')).toBe(true);
  }, 240_000);
});
