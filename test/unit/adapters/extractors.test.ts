import { CompareFacesCommand, RekognitionClient } from '@aws-sdk/client-rekognition';
import { AnalyzeDocumentCommand, AnalyzeIDCommand, TextractClient } from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { readSandboxPayload } from '../../../src/adapters/sandbox/payload';
import { SandboxExtractor } from '../../../src/adapters/sandbox/extractor';
import { TextractExtractor } from '../../../src/adapters/textract/extractor';
import { InMemoryBlobs } from '../../fakes/in-memory';
import { pdf, png } from '../../fixtures/images';

const payload = { person: { surname: 'Lovelace', given_names: 'Ada' }, document: { number: 'P1', country_code: 'GBR' } };

function jpegWithComment(text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(body.length + 2);
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xfe]), len, body, Buffer.from([0xff, 0xda, 0, 2, 0xff, 0xd9])]);
}

describe('sandbox payloads', () => {
  it('reads the JSON from a PNG text chunk, a JPEG comment and a PDF comment line', () => {
    expect(readSandboxPayload(png(4, 4, 1, payload))).toEqual(payload);
    expect(readSandboxPayload(jpegWithComment(`idv-sandbox:${JSON.stringify(payload)}`))).toEqual(payload);
    expect(readSandboxPayload(pdf(payload))).toEqual(payload);
  });

  it('finds nothing in a plain image or broken JSON', () => {
    expect(readSandboxPayload(png())).toBeUndefined();
    expect(readSandboxPayload(jpegWithComment('idv-sandbox:{not json'))).toBeUndefined();
    expect(readSandboxPayload(Buffer.from('GIF89a'))).toBeUndefined();
  });

  it('fills the spec groups with strings and marks the document identified', async () => {
    const blobs = new InMemoryBlobs();
    await blobs.put('k', png(4, 4, 1, { ...payload, person: { ...payload.person, date_of_birth: 19901210 }, extra: { x: 1 } }), 'image/png');
    const out = await new SandboxExtractor(blobs).extract({
      contextType: 'PHOTO_ID', documentType: { id: 1, name: 'Passport' }, country: 'GBR', front: { key: 'k', contentType: 'image/png' }, back: null, compareWith: null, expected: null,
    });
    expect(out.data.person).toEqual({ surname: 'Lovelace', full_name: '', given_names: 'Ada', date_of_birth: '19901210' });
    expect(out.data.document).toMatchObject({ identified: 'true', country_code: 'GBR', country_name: 'United Kingdom' });
    expect(out.confidence['person.surname']).toBe(0.99);
    expect(out.data).not.toHaveProperty('extra');
  });

  it('ignores payload keys that are names of Object.prototype members (toString, constructor, __proto__)', async () => {
    const blobs = new InMemoryBlobs();
    const hostile = JSON.parse(
      '{"person":{"given_names":"Ada","toString":"x","valueOf":"y","constructor":"z","hasOwnProperty":"h","__proto__":{"polluted":"1"}},"document":{"toString":"x","number":"N1"}}',
    );
    await blobs.put('k', png(4, 4, 1, hostile), 'image/png');
    const out = await new SandboxExtractor(blobs).extract({
      contextType: 'PHOTO_ID', documentType: { id: 1, name: 'Passport' }, country: 'GBR', front: { key: 'k', contentType: 'image/png' }, back: null, compareWith: null, expected: null,
    });
    expect(out.data.person).toEqual({ surname: '', full_name: '', given_names: 'Ada', date_of_birth: '' });
    expect(Object.hasOwn(out.data.person, 'toString')).toBe(false);
    expect(Object.hasOwn(out.data.document, 'toString')).toBe(false);
    expect(out.data.document.number).toBe('N1');
    expect(Object.keys(out.confidence).sort()).toEqual(['document.number', 'person.given_names']);
    expect(`${out.data.person}`).toBe('[object Object]');
  });
});

describe('Textract and Rekognition extractor', () => {
  const textract = mockClient(TextractClient);
  const rekognition = mockClient(RekognitionClient);
  beforeEach(() => {
    textract.reset();
    rekognition.reset();
  });
  const extractor = new TextractExtractor(new TextractClient({}), new RekognitionClient({}), 'images');
  const base = { documentType: { id: 2, name: 'Driver License' }, country: 'USA', back: null, compareWith: null, expected: null };

  it('maps AnalyzeID fields (normalized dates, confidence 0..1) and sends both sides', async () => {
    textract.on(AnalyzeIDCommand).resolves({
      IdentityDocuments: [
        {
          DocumentIndex: 1,
          IdentityDocumentFields: [
            { Type: { Text: 'FIRST_NAME' }, ValueDetection: { Text: 'GARCIA', Confidence: 98.2 } },
            { Type: { Text: 'LAST_NAME' }, ValueDetection: { Text: 'MARIA', Confidence: 97 } },
            { Type: { Text: 'DATE_OF_BIRTH' }, ValueDetection: { Text: '8/4/1982', NormalizedValue: { Value: '1982-08-04T00:00:00', ValueType: 'DATE' }, Confidence: 95 } },
            { Type: { Text: 'DOCUMENT_NUMBER' }, ValueDetection: { Text: '736HDV7874JSB', Confidence: 96 } },
            { Type: { Text: 'EXPIRATION_DATE' }, ValueDetection: { Text: '1/20/2029', NormalizedValue: { Value: '2029-01-20T00:00:00', ValueType: 'DATE' }, Confidence: 96 } },
            { Type: { Text: 'STATE_NAME' }, ValueDetection: { Text: 'MASSACHUSETTS', Confidence: 99 } },
            { Type: { Text: 'MIDDLE_NAME' }, ValueDetection: { Text: '', Confidence: 99 } },
          ],
        },
      ],
    });
    const out = await extractor.extract({ ...base, contextType: 'PHOTO_ID', front: { key: 'f', contentType: 'image/jpeg' }, back: { key: 'b', contentType: 'image/jpeg' } });
    expect(textract.commandCalls(AnalyzeIDCommand)[0]!.args[0].input.DocumentPages).toEqual([
      { S3Object: { Bucket: 'images', Name: 'f' } },
      { S3Object: { Bucket: 'images', Name: 'b' } },
    ]);
    expect(out.data.person).toEqual({ given_names: 'GARCIA', surname: 'MARIA', full_name: 'GARCIA MARIA', date_of_birth: '1982-08-04' });
    expect(out.data.document).toMatchObject({ number: '736HDV7874JSB', expiration_date: '2029-01-20', issuing_entity: 'MASSACHUSETTS', identified: 'true', country_code: 'USA' });
    expect(out.confidence['person.given_names']).toBeCloseTo(0.982);
  });

  it('answers proof-of-address queries from QUERY/QUERY_RESULT blocks', async () => {
    textract.on(AnalyzeDocumentCommand).resolves({
      Blocks: [
        { BlockType: 'QUERY', Id: 'q1', Query: { Text: 'name?', Alias: 'NAME' }, Relationships: [{ Type: 'ANSWER', Ids: ['a1'] }] },
        { BlockType: 'QUERY_RESULT', Id: 'a1', Text: 'Ada Lovelace', Confidence: 88 },
        { BlockType: 'QUERY', Id: 'q2', Query: { Text: 'address?', Alias: 'ADDRESS' }, Relationships: [{ Type: 'ANSWER', Ids: ['a2'] }] },
        { BlockType: 'QUERY_RESULT', Id: 'a2', Text: '1 Main St Austin TX 78701', Confidence: 91 },
      ],
    });
    const out = await extractor.extract({ ...base, contextType: 'PROOF_OF_ADDRESS', front: { key: 'bill', contentType: 'application/pdf' } });
    expect(textract.commandCalls(AnalyzeDocumentCommand)[0]!.args[0].input).toMatchObject({ FeatureTypes: ['QUERIES'] });
    expect(out.data.person.full_name).toBe('Ada Lovelace');
    expect(out.data.address).toMatchObject({ full: '1 Main St Austin TX 78701', country: 'USA' });
    expect(out.confidence['address.full']).toBeCloseTo(0.91);
  });

  it('compares the selfie with the photo ID and reports the best similarity', async () => {
    rekognition.on(CompareFacesCommand).resolves({ SourceImageFace: { Confidence: 99.9 }, FaceMatches: [{ Similarity: 97.25 }, { Similarity: 12 }] });
    const out = await extractor.extract({ ...base, contextType: 'SELFIE', front: { key: 's', contentType: 'image/jpeg' }, compareWith: { key: 'f', contentType: 'image/jpeg' } });
    expect(rekognition.commandCalls(CompareFacesCommand)[0]!.args[0].input).toMatchObject({ SourceImage: { S3Object: { Name: 's' } }, TargetImage: { S3Object: { Name: 'f' } } });
    expect(out.data.document).toMatchObject({ selfie_comparison: '97.3', has_selfie: 'true' });
  });

  it('leaves the selfie unevaluated without a photo ID to compare with', async () => {
    const out = await extractor.extract({ ...base, contextType: 'SELFIE', front: { key: 's', contentType: 'image/jpeg' } });
    expect(out.data.document.selfie_comparison).toBe('');
    expect(rekognition.commandCalls(CompareFacesCommand)).toHaveLength(0);
  });
});
