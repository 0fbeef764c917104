import { createVerification } from '../../../src/app/create-verification';
import { sessionToken } from '../../../src/app/tokens';
import { summariseReading } from '../../../src/app/widget-reading';
import { getSession, uploadFromWidget } from '../../../src/app/widget';
import { preExtract } from '../../../src/app/workflow/pre-extract';
import { emptyExtractedData } from '../../../src/domain/rules';
import type { Extraction } from '../../../src/ports/extractor';
import { b64, png } from '../../fixtures/images';
import { fakeDeps, REQ } from '../../fakes/in-memory';

/** The rules' thresholds of config/rules.json (min_confidence 0.6). */
const T = fakeDeps().deps.ruleThresholds;

function extraction(fill: Record<string, [string, number]>, readings?: Extraction['readings']): Extraction {
  const data = emptyExtractedData();
  const confidence: Record<string, number> = {};
  for (const [path, [value, c]] of Object.entries(fill)) {
    const [g, k] = path.split('.') as [keyof typeof data, string];
    (data[g] as Record<string, string>)[k] = value;
    confidence[path] = c;
  }
  data.document.identified = Object.keys(fill).length > 0 ? 'true' : 'false';
  return { data, confidence, ...(readings && { readings }) };
}

describe('summariseReading', () => {
  it('says found, unclear (under min_confidence) or not found per group, and the machine-readable zone when the extractor names it', () => {
    const e = extraction(
      { 'person.surname': ['X', 0.99], 'person.date_of_birth': ['1990-01-01', 0.3], 'document.number': ['N1', 0.99] },
      [{ field: 'person.surname', value: 'X', source: 'mrz' }, { field: 'person.date_of_birth', value: '1990-01-01', source: 'mrz' }],
    );
    expect(summariseReading('PHOTO_ID', e, T)).toEqual({
      recognised: true,
      machine_readable: 'unclear',
      fields: [{ group: 'name', status: 'found' }, { group: 'date_of_birth', status: 'unclear' }, { group: 'document_number', status: 'found' }, { group: 'expiration_date', status: 'not_found' }],
    });
    expect(summariseReading('PHOTO_ID', extraction({ 'document.number': ['N1', 0.99] }, [{ field: 'document.number', value: 'N1', source: 'mrz' }]), T).machine_readable).toBe('valid');
    // Readings from printed text only: no zone read. No readings at all: the extractor does not say.
    expect(summariseReading('PHOTO_ID', extraction({ 'document.number': ['N1', 0.9] }, [{ field: 'document.number', value: 'N1', source: 'printed' }]), T).machine_readable).toBe('not_found');
    expect(summariseReading('PHOTO_ID', extraction({ 'document.number': ['N1', 0.9] }), T).machine_readable).toBeNull();
  });

  it('shows a proof of address as name and address, and nothing read as not recognised', () => {
    expect(summariseReading('PROOF_OF_ADDRESS', extraction({ 'address.street': ['1 Main St', 0.9] }), T)).toEqual({
      recognised: true, machine_readable: null, fields: [{ group: 'name', status: 'not_found' }, { group: 'address', status: 'found' }],
    });
    expect(summariseReading('PHOTO_ID', extraction({}), T)).toMatchObject({ recognised: false, fields: expect.not.arrayContaining([expect.objectContaining({ status: 'found' })]) });
  });
});

describe('the widget session\'s readings', () => {
  it('are pending until PreExtract read the document, read after, pending again when the stored reading is of other images, and gone once submitted', async () => {
    const { deps } = fakeDeps();
    const v = await createVerification(deps, REQ, 'photo-id', { person: { first_name: 'Ada', last_name: 'Lovelace' } });
    const token = sessionToken(deps.sessionSecret, v.id);
    const payload = { person: { surname: 'Lovelace', given_names: 'Ada' }, document: { number: 'P1' } };
    const doc = await uploadFromWidget(deps, token, { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(8, 8, 1, payload)) });
    const reading = async () => (await getSession(deps, token)).documents.find((d) => d.id === doc.id)?.reading;
    expect(await reading()).toEqual({ state: 'pending', recognised: null, machine_readable: null, fields: [] });
    expect(await preExtract(deps, { type: 'DocumentUploaded', data: { verification_id: v.id, document: { id: doc.id } } } as never)).toEqual({ cached: true });
    const read = await reading();
    expect(read).toMatchObject({ state: 'read', recognised: true, fields: [{ group: 'name', status: 'found' }, { group: 'date_of_birth', status: 'not_found' }, { group: 'document_number', status: 'found' }, { group: 'expiration_date', status: 'not_found' }] });
    expect(JSON.stringify(read)).not.toMatch(/Lovelace|Ada|P1/);
    // The document's images changed since (Update Document): that reading is not current.
    const stored = (deps.extractionCache as unknown as { items: Map<string, { images: string[] }> }).items.get(doc.id)!;
    const current = stored.images;
    stored.images = ['0'.repeat(64)];
    expect((await reading())?.state).toBe('pending');
    stored.images = current;
    expect((await reading())?.state).toBe('read');
    // Closed (submitted): nothing is read for the page any more.
    const store = deps.verifications as unknown as { verifications: Map<string, { status: number }> };
    store.verifications.get(v.id)!.status = 2;
    expect(await reading()).toBeNull();
  });
});
