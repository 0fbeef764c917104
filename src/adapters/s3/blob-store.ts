import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl, S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { BlobStore } from '../../ports/blob-store';
import { NotFoundError } from '../../domain/errors';

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

  /** The object's bytes; NotFoundError when it is not stored (deleted meanwhile, or lost). */
  async get(key: string): Promise<Uint8Array> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!out.Body) throw new Error('empty S3 object body');
      return await out.Body.transformToByteArray();
    } catch (error) {
      const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404) throw new NotFoundError('Image not found');
      throw error;
    }
  }

  async deleteOrThrow(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const out = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }),
      );
      if (out.Errors && out.Errors.length > 0) throw new Error(`S3 could not delete ${out.Errors.length} object(s)`);
    }
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

  /**
   * Presigned GET link. The SDK's getSignedUrl runs the whole request pipeline (endpoint rules,
   * serialisation) for every link; the endpoint of this bucket never changes, so it is learnt once
   * from one getSignedUrl and every later link is only signed (S3RequestPresigner), which is
   * several times faster. A unit test checks both give the same URL.
   */
  async signedGetUrl(key: string, seconds: number, signingDate?: Date): Promise<string> {
    const t = await (this.template ??= this.learnTemplate());
    const signed = await t.presigner.presign(
      {
        method: 'GET',
        protocol: t.protocol,
        hostname: t.hostname,
        ...(t.port !== undefined && { port: t.port }),
        path: `${t.pathPrefix}/${key.split('/').map(encodeSegment).join('/')}`,
        query: { ...t.query },
        headers: { host: t.host },
      },
      { expiresIn: seconds, ...(signingDate && { signingDate }) },
    );
    const query = Object.entries(signed.query ?? {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(String(v))}`)
      .join('&');
    return `${signed.protocol}//${signed.hostname}${signed.port ? `:${signed.port}` : ''}${signed.path}?${query}`;
  }

  private template: Promise<UrlTemplate> | undefined;

  private async learnTemplate(): Promise<UrlTemplate> {
    const probeKey = '__probe__';
    const url = new URL(await getSignedUrl(this.presignClient, new GetObjectCommand({ Bucket: this.bucket, Key: probeKey }), { expiresIn: 60 }));
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) if (!k.startsWith('X-Amz-')) query[k] = v;
    return {
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      host: url.host,
      pathPrefix: url.pathname.slice(0, -`/${probeKey}`.length),
      query,
      presigner: new S3RequestPresigner({ ...this.presignClient.config }),
    };
  }
}

interface UrlTemplate {
  protocol: string;
  hostname: string;
  port: number | undefined;
  host: string;
  pathPrefix: string;
  query: Record<string, string>;
  presigner: S3RequestPresigner;
}

/** RFC 3986 encoding, as SigV4 and the SDK apply it to path segments and query parts. */
function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
