import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ImageKey, ImageReferences } from '../../ports/image-inventory';
import { keys } from './keys';

type Item = Record<string, unknown>;
type Key = Record<string, string>;

/**
 * Which images their documents still name, read straight from the items (strongly consistent):
 * DocumentRepository.get hides the documents of a soft-deleted verification, whose images the
 * purge job still owns, so the sweep reads the document reference and the document item itself.
 */
export class DynamoImageReferences implements ImageReferences {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async referenced(images: ImageKey[]): Promise<Set<string>> {
    const documentIds = [...new Set(images.map((i) => i.documentId))];
    const refs = await this.getAll(
      documentIds.map((id) => keys.documentRef(id)),
      ['verification_id', 'context_type'],
    );
    const documentKeys = new Map<string, Key>();
    for (const r of refs) {
      const key = keys.document(r.verification_id as string, r.context_type as string);
      documentKeys.set(`${key.PK}\n${key.SK}`, key);
    }
    const named = new Set<string>();
    for (const d of await this.getAll([...documentKeys.values()], ['id', 'front', 'back'])) {
      if (!documentIds.includes(d.id as string)) continue;
      for (const side of [d.front, d.back] as ({ key?: unknown } | null | undefined)[]) {
        if (typeof side?.key === 'string') named.add(side.key);
      }
    }
    return named;
  }

  /** BatchGetItem of `attributes` by 100 keys, unprocessed keys asked again until none is left. */
  private async getAll(all: Key[], attributes: string[]): Promise<Item[]> {
    const names = Object.fromEntries(attributes.map((a, i) => [`#a${i}`, a]));
    const projection = Object.keys(names).join(', ');
    const items: Item[] = [];
    for (let i = 0; i < all.length; i += 100) {
      let pending: Key[] | undefined = all.slice(i, i + 100);
      for (let attempt = 0; pending && pending.length > 0; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 2000)));
        const out = await this.db.send(new BatchGetCommand({
            RequestItems: { [this.table]: { Keys: pending, ConsistentRead: true, ProjectionExpression: projection, ExpressionAttributeNames: names } },
          }));
        items.push(...(out.Responses?.[this.table] ?? []));
        pending = out.UnprocessedKeys?.[this.table]?.Keys as Key[] | undefined;
      }
    }
    return items;
  }
}
