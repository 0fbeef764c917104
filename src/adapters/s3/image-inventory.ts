import { DeleteObjectsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { ImageInventory, StoredImage } from '../../ports/image-inventory';

/**
 * The image bucket listed under its image prefix (ListObjectsV2, 1,000 keys a page) and pruned
 * (DeleteObjects). S3 lists in key order and filters nothing by date: the age filter is applied
 * here, page by page, so memory stays one page whatever the bucket holds.
 */
export class S3ImageInventory implements ImageInventory {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
  ) {}

  async *storedBefore(before: string): AsyncIterable<StoredImage[]> {
    const cutoff = Date.parse(before);
    let token: string | undefined;
    do {
      const out = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }));
      const page: StoredImage[] = [];
      for (const o of out.Contents ?? []) {
        if (!o.Key || !o.LastModified || o.LastModified.getTime() >= cutoff) continue;
        page.push({ key: o.Key, storedAt: o.LastModified.toISOString() });
      }
      if (page.length > 0) yield page;
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }

  async remove(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const out = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }),
      );
      if (out.Errors && out.Errors.length > 0) throw new Error(`S3 could not delete ${out.Errors.length} object(s)`);
    }
  }
}
