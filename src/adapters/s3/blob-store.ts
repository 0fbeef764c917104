import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { BlobStore } from '../../ports/blob-store';

/**
 * S3 image store. `presignClient` may differ from `client` only in its endpoint (locally: the
 * public, signature-checking front instead of the internal S3 server).
 */
export class S3BlobStore implements BlobStore {
  constructor(
    private readonly client: S3Client,
    private readonly presignClient: S3Client,
    private readonly bucket: string,
    private readonly logger: Pick<Logger, 'error'>,
  ) {}

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }),
    );
  }

  async get(key: string): Promise<Uint8Array> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!out.Body) throw new Error('empty S3 object body');
    return out.Body.transformToByteArray();
  }

  async delete(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    try {
      const out = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
      );
      if (out.Errors && out.Errors.length > 0) this.logger.error('S3 delete left objects', { keys: out.Errors.map((e) => e.Key) });
    } catch (error) {
      this.logger.error('S3 delete failed', { keys, error: (error as Error).name });
    }
  }

  signedGetUrl(key: string, seconds: number): Promise<string> {
    return getSignedUrl(this.presignClient, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: seconds });
  }
}
