import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ExtractionCache } from '../../ports/extraction-cache';
import type { Extraction } from '../../ports/extractor';
import { keys } from './keys';

/** Cached extractions live a week, one item per document. */
const RETENTION_SECONDS = 7 * 86_400;

export class DynamoExtractionCache implements ExtractionCache {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(_verificationId: string, documentId: string, key: string): Promise<Extraction | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.extraction(documentId), ConsistentRead: true }));
    if (!out.Item || out.Item.key !== key) return undefined;
    return toExtraction(out.Item);
  }

  async latest(documentId: string): Promise<{ extraction: Extraction; images: readonly string[] } | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.extraction(documentId), ConsistentRead: true }));
    if (!out.Item || !Array.isArray(out.Item.images)) return undefined;
    return { extraction: toExtraction(out.Item), images: out.Item.images as string[] };
  }

  async put(verificationId: string, documentId: string, key: string, extraction: Extraction, images: readonly string[]): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...keys.extraction(documentId),
          verification_id: verificationId,
          entity: 'extraction',
          key,
          data: extraction.data,
          confidence: extraction.confidence,
          ...(extraction.readings && { readings: extraction.readings }),
          images: [...images],
          ttl: Math.floor(Date.now() / 1000) + RETENTION_SECONDS,
        },
      }),
    );
  }
}

function toExtraction(item: Record<string, unknown>): Extraction {
  return { data: item.data as Extraction['data'], confidence: (item.confidence as Extraction['confidence']) ?? {}, ...(item.readings ? { readings: item.readings as Extraction['readings'] } : {}) };
}
