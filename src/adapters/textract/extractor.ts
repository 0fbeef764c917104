import { CompareFacesCommand, type RekognitionClient } from '@aws-sdk/client-rekognition';
import { AnalyzeDocumentCommand, AnalyzeIDCommand, type Block, type TextractClient } from '@aws-sdk/client-textract';
import { countryByIso3 } from '../../domain/countries';
import { emptyExtractedData } from '../../domain/rules';
import type { Extraction, ExtractionInput, Extractor } from '../../ports/extractor';

/** Proof-of-address questions asked through Textract Queries. */
export const ADDRESS_QUERIES = [
  { Alias: 'NAME', Text: 'What is the name of the customer or account holder?' },
  { Alias: 'ADDRESS', Text: 'What is the service or mailing address?' },
  { Alias: 'DATE', Text: 'What is the statement or bill date?' },
];

const pct = (c: number | undefined) => (c === undefined ? 0 : c / 100);

/**
 * Amazon Textract AnalyzeID for photo IDs, AnalyzeDocument with Queries for proof of address,
 * Amazon Rekognition CompareFaces for a selfie against the photo ID. Images are read in place from S3.
 */
export class TextractExtractor implements Extractor {
  readonly name = 'aws';
  constructor(
    private readonly textract: TextractClient,
    private readonly rekognition: RekognitionClient,
    private readonly bucket: string,
  ) {}

  private s3(key: string) {
    return { S3Object: { Bucket: this.bucket, Name: key } };
  }

  async extract(input: ExtractionInput): Promise<Extraction> {
    if (input.contextType === 'SELFIE') return this.selfie(input);
    if (input.contextType === 'PHOTO_ID') return this.photoId(input);
    return this.proofOfAddress(input);
  }

  private async photoId(input: ExtractionInput): Promise<Extraction> {
    const pages = [this.s3(input.front.key), ...(input.back ? [this.s3(input.back.key)] : [])];
    const out = await this.textract.send(new AnalyzeIDCommand({ DocumentPages: pages }));
    const data = emptyExtractedData();
    const confidence: Record<string, number> = {};
    const fields = new Map<string, { text: string; confidence: number }>();
    for (const doc of out.IdentityDocuments ?? []) {
      for (const f of doc.IdentityDocumentFields ?? []) {
        const type = f.Type?.Text;
        const value = f.ValueDetection?.NormalizedValue?.Value ?? f.ValueDetection?.Text ?? '';
        if (!type || value === '' || fields.has(type)) continue;
        fields.set(type, { text: f.ValueDetection?.NormalizedValue?.ValueType === 'DATE' ? value.slice(0, 10) : value, confidence: pct(f.ValueDetection?.Confidence) });
      }
    }
    const set = (path: `${'person' | 'address' | 'document'}.${string}`, type: string) => {
      const f = fields.get(type);
      if (!f) return;
      const [group, key] = path.split('.') as ['person' | 'address' | 'document', string];
      (data[group] as Record<string, string>)[key] = f.text;
      confidence[path] = f.confidence;
    };
    set('person.given_names', 'FIRST_NAME');
    set('person.surname', 'LAST_NAME');
    set('person.date_of_birth', 'DATE_OF_BIRTH');
    set('document.number', 'DOCUMENT_NUMBER');
    set('document.expiration_date', 'EXPIRATION_DATE');
    set('document.type', 'ID_TYPE');
    set('document.issuing_entity', 'STATE_NAME');
    set('address.full', 'ADDRESS');
    set('address.city', 'CITY_IN_ADDRESS');
    set('address.state', 'STATE_IN_ADDRESS');
    set('address.zip', 'ZIP_CODE_IN_ADDRESS');
    data.person.full_name = [data.person.given_names, data.person.surname].filter(Boolean).join(' ');
    data.document.identified = fields.size > 0 ? 'true' : 'false';
    // AnalyzeID reads US documents and passports; the issuing country is the declared one.
    data.document.country_code = input.country;
    data.document.country_name = countryByIso3(input.country)?.name ?? '';
    return { data, confidence };
  }

  private async proofOfAddress(input: ExtractionInput): Promise<Extraction> {
    const out = await this.textract.send(
      new AnalyzeDocumentCommand({ Document: this.s3(input.front.key), FeatureTypes: ['QUERIES'], QueriesConfig: { Queries: ADDRESS_QUERIES } }),
    );
    const blocks = new Map((out.Blocks ?? []).map((b) => [b.Id ?? '', b]));
    const answers = new Map<string, Block>();
    for (const b of out.Blocks ?? []) {
      if (b.BlockType !== 'QUERY' || !b.Query?.Alias) continue;
      const answerId = b.Relationships?.find((r) => r.Type === 'ANSWER')?.Ids?.[0];
      const answer = answerId ? blocks.get(answerId) : undefined;
      if (answer?.Text) answers.set(b.Query.Alias, answer);
    }
    const data = emptyExtractedData();
    const confidence: Record<string, number> = {};
    const name = answers.get('NAME');
    const address = answers.get('ADDRESS');
    if (name?.Text) {
      data.person.full_name = name.Text;
      confidence['person.full_name'] = pct(name.Confidence);
    }
    if (address?.Text) {
      data.address.full = address.Text;
      confidence['address.full'] = pct(address.Confidence);
    }
    data.document.identified = answers.size > 0 ? 'true' : 'false';
    data.document.country_code = input.country;
    data.document.country_name = countryByIso3(input.country)?.name ?? '';
    data.address.country = input.country;
    return { data, confidence };
  }

  private async selfie(input: ExtractionInput): Promise<Extraction> {
    const data = emptyExtractedData();
    data.document.has_selfie = 'true';
    if (!input.compareWith) return { data, confidence: {} };
    const out = await this.rekognition.send(
      new CompareFacesCommand({ SourceImage: this.s3(input.front.key), TargetImage: this.s3(input.compareWith.key), SimilarityThreshold: 0 }),
    );
    const best = Math.max(0, ...(out.FaceMatches ?? []).map((m) => m.Similarity ?? 0));
    data.document.selfie_comparison = out.SourceImageFace ? best.toFixed(1) : '';
    data.document.identified = out.SourceImageFace ? 'true' : 'false';
    return { data, confidence: { 'document.selfie_comparison': pct(out.SourceImageFace?.Confidence) } };
  }
}
